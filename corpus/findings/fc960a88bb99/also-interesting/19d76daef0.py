# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: cmath(N): warning #N-D: incompatible redefinition of macro "INFINITY" (declared at line N of __tmp_nvfuser_greedy_f?_c?_r?_g?.cu)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[11, 14, 10], contiguity=[True, False, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.cummax(T0, dim=0)
    T2 = fd.ops.cat([T0, T1], dim=1)
    T3 = fd.ops.cummax(T2, dim=0)
    T5 = fd.ops.lerp(T3, 2.0, 0.25)
    T6 = fd.ops.cumprod(T5, dim=0)
    fd.add_output(T6)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11, 14, 10), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
