import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[12, -1, 12, 1], contiguity=[None, True, True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[0, 2, 1, 3])
    T1 = fd.define_tensor(shape=[1, -1, -1, -1], contiguity=[None, True, True, True], dtype=DataType.Bool, is_cpu=False)
    T2 = fd.ops.cast(T1, dtype=DataType.Half)
    T3 = fd.ops.logical_not(T1)
    T4 = fd.ops.expand(T2, shape=[8, -1, -1, -1])
    T5 = fd.ops.bitwise_not(T1)
    T6 = fd.ops.cumprod(T2, dim=1)
    T7 = fd.ops.cummin(T6, dim=1)
    T8 = fd.ops.expm1(T4)
    T9 = fd.ops.broadcast_in_dim(T4, shape=[8, 10, 12, 1], broadcast_dims=[0, 1, 2, 3])
    T10 = fd.ops.cast(T3, dtype=DataType.Half)
    T11, T12, T13 = fd.ops.welford(T8, dims=[0])
    T14 = fd.ops.var(T11, dims=[0, 2], correction=0, keepdim=False)
    T15 = fd.ops.set(T14)
    fd.add_output(T15)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T10)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 2, (1440,), dtype=torch.bool, device='cuda').as_strided((12, 10, 12, 1), (1, 144, 12, 1440)),
    torch.testing.make_tensor((1, 10, 12, 1), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
