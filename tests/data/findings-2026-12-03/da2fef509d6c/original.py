import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[12, -1, -1, 14], contiguity=[True, True, True, True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.ops.sum(T0, dims=[0, 2], keepdim=True)
    T2 = fd.ops.max(T1, dims=[1], keepdim=False)
    T3 = fd.ops.prod(T0, dims=[0, 2], keepdim=True)
    S4 = fd.define_scalar(2, dtype=DataType.Int)
    T5 = fd.ops.gt(T3, S4)
    S6 = fd.define_scalar(2, dtype=DataType.Int)
    T7 = fd.ops.where(T5, T3, S6)
    T8 = fd.ops.cumsum(T2, dim=2)
    T9 = fd.ops.max(T1, dims=[0], keepdim=False)
    T10 = fd.ops.cast(T2, dtype=DataType.Int)
    T11 = fd.ops.logical_not(T0)
    T12 = fd.ops.cast(T3, dtype=DataType.Int)
    T13 = fd.ops.permute(T11, dims=[0, 3, 1, 2])
    T14 = fd.ops.squeeze(T12, dims=[0, 2])
    T15 = fd.ops.broadcast_in_dim(T8, shape=[1, 1, 14], broadcast_dims=[0, 1, 2])
    fd.add_output(T15)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T10)
    fd.add_output(T12)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12, 9, 16, 14), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
