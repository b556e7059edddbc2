# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_pointwise_f?_c?_r?_g?.cu(N): error: more than one instance of overloaded function "nvf::lerp" matches the argument list:
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T2 = fd.define_tensor(shape=[1, 14, 1, -1], contiguity=[None, True, True, None], dtype=DataType.Half, is_cpu=False, stride_order=[0, 1, 3, 2])
    T3 = fd.ops.lerp(T2, 2.0, 0.25)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(224, dtype=torch.float16, device='cuda').as_strided((1, 14, 1, 16), (1, 1, 224, 14)),
]
fd.execute(inputs)
