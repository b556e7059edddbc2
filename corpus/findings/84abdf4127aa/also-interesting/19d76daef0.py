# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: cmath(N): warning #N-D: incompatible redefinition of macro "INFINITY" (declared at line N of __tmp_nvfuser_greedy_f?_c?_r?_g?.cu)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 14, 9, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.pow(T0, 0.5)
    tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T3 = fd.ops.cummax(tv0, dim=1)
    T4 = fd.ops.cumprod(T0, dim=2)
    T5 = fd.ops.lerp(T4, tv0, 0.25)
    T6 = fd.ops.sum(T1, dims=[1, 3], keepdim=True)
    T7 = fd.ops.le(T6, T3)
    T8 = fd.ops.cos(T5)
    fd.add_output(T8)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12, 14, 9, 4), dtype=torch.bfloat16, device='cuda'),torch.testing.make_tensor((12, 14, 9, 4), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
