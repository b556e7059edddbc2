# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: cmath(N): warning #N-D: incompatible redefinition of macro "INFINITY" (declared at line N of __tmp_nvfuser_greedy_f?_c?_r?_g?.cu)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[11, 6, 3, 14], contiguity=[True, True, False, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 3, 0, 1])
    T1 = fd.ops.cummin(T0, dim=2)
    T2 = fd.ops.sin(T0)
    fd.add_output(T2)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(2772, dtype=torch.bfloat16, device='cuda').as_strided((11, 6, 3, 14), (42, 462, 1, 3)),
]
fd.execute(inputs)
