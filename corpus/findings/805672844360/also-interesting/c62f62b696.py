# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_reduction_f?_c?_r?_g?.cu(N): error: no instance of overloaded function "__shfl_xor_sync" matches the argument list
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.cast(T0, dtype=DataType.Float)
    T5 = fd.ops.max(T0, dims=[0, 1], keepdim=True)
    T10 = fd.ops.cast(T5, dtype=DataType.BFloat16)
    T11 = fd.ops.var(T2, dims=[0], correction=0, keepdim=False)
    fd.add_output(T11)
    fd.add_output(T10)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((6, 14), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
