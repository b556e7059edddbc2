# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: cmath(N): warning #N-D: incompatible redefinition of macro "INFINITY" (declared at line N of __tmp_nvfuser_greedy_f?_c?_r?_g?.cu)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T2 = fd.define_tensor(shape=[1, 14, 1, -1], contiguity=[None, True, True, None], dtype=DataType.Half, is_cpu=False, stride_order=[0, 1, 3, 2])
    T3 = fd.ops.lerp(T2, 2.0, 0.25)
    T5 = fd.ops.cummax(T2, dim=1)
    T6 = fd.ops.gt(T5, 0.0)
    T7 = fd.ops.where(T6, T5, 1.0)
    fd.add_output(T7)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(224, dtype=torch.float16, device='cuda').as_strided((1, 14, 1, 16), (1, 1, 224, 14)),
]
fd.execute(inputs)
