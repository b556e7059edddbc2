# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_reduction_f?_c?_r?_g?.cu(N): error: more than one instance of overloaded function "nvf::lerp" matches the argument list:
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[1, 3, 1, 1], contiguity=[None, True, None, None], dtype=DataType.BFloat16, is_cpu=False)
    T8 = fd.ops.set(T1)
    T13 = fd.ops.lerp(T8, 2.0, 0.25)
    T14 = fd.ops.prod(T8, dims=[0, 1, 3], keepdim=False)
    fd.add_output(T14)
    fd.add_output(T13)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 3, 1, 1), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
