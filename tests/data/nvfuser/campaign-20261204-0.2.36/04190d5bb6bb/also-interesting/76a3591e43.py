# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_*.cu(N): error: no operator "*" matches these operands
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.set(T0)
    T2 = fd.ops.prod(T1, dims=[0], keepdim=True)
    T3 = fd.ops.stride_order(T0, stride_order=[0])
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15,), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
