# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_reduction_f?_c?_r?_g?.cu(N): error: no instance of overloaded function "nvf::threshold" matches the argument list
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 0, 1])
    T1 = fd.ops.logical_or(T0, -1.0)
    T2 = fd.ops.set(T1)
    T4 = fd.ops.threshold(T0, 0.5, 0.0)
    T6 = fd.ops.broadcast_in_dim(T2, shape=[14, 5, 14], broadcast_dims=[0, 1, 2])
    T7 = fd.ops.sum(T4, dims=[0, 1], keepdim=False)
    fd.add_output(T7)
    fd.add_output(T6)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(980, dtype=torch.float16, device='cuda').as_strided((14, 5, 14), (70, 1, 5)),
]
fd.execute(inputs)
