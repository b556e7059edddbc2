# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_pointwise_f?_c?_r?_g?.cu(N): error: no instance of overloaded function "nvf::clamp" matches the argument list
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 12], contiguity=[False, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 2, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.BFloat16)
    T3 = fd.ops.cummin(T0, dim=0)
    T4 = fd.ops.addcmul(T0, T1, T0, 0.5)
    T5 = fd.ops.clamp(T3, -1.0, 1.0)
    fd.add_output(T5)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(1248, dtype=torch.bfloat16, device='cuda').as_strided((13, 8, 12), (12, 156, 1)),
]
fd.execute(inputs)
