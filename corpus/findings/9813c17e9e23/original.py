import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[4], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Bool, is_cpu=False)
    T3 = fd.ops.broadcast_in_dim(T0, shape=[7, 4], broadcast_dims=[1])
    T4 = fd.ops.bitwise_not(T1)
    T5 = fd.ops.broadcast_in_dim(T0, shape=[1, 4, 1], broadcast_dims=[1])
    T6 = fd.ops.logical_or(T4, T1)
    S7 = fd.define_scalar(True, dtype=DataType.Bool)
    T8 = fd.ops.pad(T1, [2, 1], S7)
    T9 = fd.ops.cumsum(T0, dim=0)
    T10, T11 = fd.ops.var_mean(T3, dims=[1], correction=1, keepdim=True)
    T12 = fd.ops.min(T11, dims=[0], keepdim=False)
    T13 = fd.ops.erf(T11)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T10)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4,), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((4,), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((4,), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
