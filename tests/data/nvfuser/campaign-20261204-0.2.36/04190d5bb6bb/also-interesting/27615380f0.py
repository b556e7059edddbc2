# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_*.cu(N): error: no operator "+" matches these operands
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.set(T0)
    T4 = fd.ops.broadcast_in_dim(T1, shape=[1, 15], broadcast_dims=[1])
    T5 = fd.ops.sum(T1, dims=[0], keepdim=True)
    fd.add_output(T5)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15,), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
