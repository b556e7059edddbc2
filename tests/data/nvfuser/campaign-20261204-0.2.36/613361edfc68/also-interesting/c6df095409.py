# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_*.cu(N): error: no instance of overloaded function "nvf::clamp" matches the argument list
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T4 = fd.ops.clamp(tv0, -1.0, 1.0)
    T5 = fd.ops.addcmul(tv0, T4, tv0, 0.5)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
