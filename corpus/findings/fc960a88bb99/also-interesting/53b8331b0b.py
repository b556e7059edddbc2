# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_pointwise_f?_c?_r?_g?.cu(N): error: more than one instance of overloaded function "nvf::lerp" matches the argument list:
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T5 = fd.ops.lerp(tv0, 2.0, 0.25)
    T6 = fd.ops.cumprod(T5, dim=0)
    T9 = fd.ops.logical_and(T6, T5)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11, 28, 10), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
