import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[5], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.cast(T0, dtype=DataType.BFloat16)
    T3 = fd.ops.broadcast_in_dim(T1, shape=[7, 5, 1], broadcast_dims=[1])
    T4 = fd.ops.addcmul(T3, T3, T3, 0.5)
    T5 = fd.ops.cast(T0, dtype=DataType.BFloat16)
    T6 = fd.ops.broadcast(T1, is_broadcast_dim=[False])
    T7 = fd.ops.cat([T4, T4], dim=1)
    T8 = fd.ops.cummin(T6, dim=0)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T5)
    fd.add_output(T2)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((5,), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((5,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
