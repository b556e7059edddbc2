# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_pointwise_f?_c?_r?_g?.cu(N): error: more than one instance of overloaded function "nvf::lerp" matches the argument list:
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T12 = fd.ops.lerp(tv0, 2.0, 0.25)
    fd.add_output(T12)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12, 17), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
