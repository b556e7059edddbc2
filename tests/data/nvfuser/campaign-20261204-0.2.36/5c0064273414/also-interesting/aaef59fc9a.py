# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_*.cu(N): error: no instance of overloaded function "nvf::min" matches the argument list
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, False, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0, 3, 2])
    T1 = fd.define_tensor(shape=[1, 4, 1, 7], contiguity=[True, None, False, None], dtype=DataType.Float, is_cpu=False, stride_order=[2, 3, 0, 1])
    T2 = fd.ops.min(T0, dims=[2, 3], keepdim=False)
    T3, T4, T5 = fd.ops.welford(T1, dims=[0, 1, 2])
    fd.add_output(T4)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(2268, dtype=torch.float16, device='cuda').as_strided((9, 4, 9, 7), (4, 1, 252, 36)),
    torch.randn(28, dtype=torch.float32, device='cuda').as_strided((1, 4, 1, 7), (7, 7, 1, 1)),
]
fd.execute(inputs)
