# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_reduction_f?_c?_r?_g?.cu(N): error: no operator "+" matches these operands
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[10, 8, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.sum(T0, dims=[1, 2], keepdim=False)
    T4 = fd.ops.cat([T1, T1], dim=0)
    T5 = fd.ops.cumprod(T4, dim=0)
    T8 = fd.ops.stride_order(T4, stride_order=[0])
    T9 = fd.ops.set(T5)
    T10 = fd.ops.cat([T5, T8], dim=0)
    fd.add_output(T10)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((10, 8, 12), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
