import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 2], contiguity=[True, True, True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.ops.max(T0, dims=[2], keepdim=True)
    T2 = fd.ops.cat([T0, T0], dim=1)
    T3 = fd.ops.set(T0)
    T4 = fd.ops.segment_set(T2)
    T5 = fd.ops.broadcast_in_dim(T2, shape=[16, 18, 2, 5], broadcast_dims=[0, 1, 2])
    T6 = fd.ops.reshape(T4, new_shape=[576])
    T7 = fd.ops.logical_and(T0, T3)
    T8 = fd.ops.sum(T7, dims=[0, 1], keepdim=False)
    T9 = fd.ops.neg(T5)
    T10 = fd.ops.broadcast(T5, is_broadcast_dim=[False, False, False, False])
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T6)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((16, 9, 2), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
