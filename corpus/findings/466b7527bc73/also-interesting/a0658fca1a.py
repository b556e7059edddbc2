# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_reduction_f?_c?_r?_g?.cu(N): error: no operator "+" matches these operands
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[11, -1, 16, 3], contiguity=[True, False, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 3, 1, 0])
    T3 = fd.ops.sum(T1, dims=[0, 1, 2], keepdim=True)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(2640, dtype=torch.bfloat16, device='cuda').as_strided((11, 5, 16, 3), (48, 528, 3, 1)),
]
fd.execute(inputs)
