# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: cmath(N): warning #N-D: incompatible redefinition of macro "INFINITY" (declared at line N of __tmp_nvfuser_*.cu)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[12], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T3 = fd.ops.cumsum(T0, dim=0)
    T4 = fd.ops.clamp(T3, -1.0, 1.0)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
