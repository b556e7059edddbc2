# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_pointwise_f?_c?_r?_g?.cu(N): error: no instance of overloaded function "nvf::threshold" matches the argument list
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 0, 1])
    T4 = fd.ops.threshold(T0, 0.5, 0.0)
    T8 = fd.ops.neg(T4)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(980, dtype=torch.float16, device='cuda').as_strided((14, 5, 14), (70, 1, 5)),
]
fd.execute(inputs)
