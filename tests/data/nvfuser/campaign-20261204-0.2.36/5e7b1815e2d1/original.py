import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[4, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, 6], contiguity=[None, False], dtype=DataType.Int32, is_cpu=False)
    T2 = fd.ops.cummin(T0, dim=0)
    T3 = fd.ops.broadcast_in_dim(T0, shape=[4, 6, 1], broadcast_dims=[0, 1])
    T4 = fd.ops.set(T0)
    T5 = fd.ops.min(T0, dims=[1], keepdim=True)
    T6 = fd.ops.prod(T2, dims=[1], keepdim=False)
    T7 = fd.ops.gt(T3, 3)
    T8 = fd.ops.where(T7, T3, -1)
    T9 = fd.ops.min(T3, dims=[1], keepdim=True)
    T10 = fd.ops.cat([T9, T9], dim=0)
    T11 = fd.ops.squeeze(T3, dims=[2])
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T8)
    fd.add_output(T6)
    fd.add_output(T2)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 6), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((1, 6), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
