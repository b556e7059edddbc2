import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[14], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.ops.broadcast(T0, is_broadcast_dim=[False])
    T2 = fd.ops.clamp(T0, -1, 2)
    T3 = fd.ops.cummin(T0, dim=0)
    T4 = fd.ops.reshape(T2, new_shape=[14])
    T5 = fd.ops.min(T3, dims=[0], keepdim=True)
    T6 = fd.ops.logical_not(T0)
    T7 = fd.ops.sum(T6, dims=[0], keepdim=True)
    T8 = fd.ops.max(T1, dims=[0], keepdim=True)
    T9 = fd.ops.where(T6, T1, T8)
    T10 = fd.ops.sum(T8, dims=[0], keepdim=True)
    T11 = fd.ops.min(T0, dims=[0], keepdim=True)
    T12 = fd.ops.sum(T9, dims=[0], keepdim=True)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((14,), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
