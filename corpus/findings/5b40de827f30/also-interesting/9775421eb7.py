# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: cmath(N): warning #N-D: incompatible redefinition of macro "INFINITY" (declared at line N of __tmp_nvfuser_*.cu)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T2 = fd.define_tensor(shape=[15, 7, -1, 1], contiguity=[True, True, True, None], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.neg(T2)
    T4 = fd.ops.cumsum(T2, dim=0)
    T5 = fd.ops.lerp(T3, 2.0, 0.25)
    T6 = fd.ops.truediv(T4, 3.0)
    fd.add_output(T6)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15, 7, 5, 1), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
