import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, -1], contiguity=[None, True], dtype=DataType.Int32, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    T3 = fd.ops.cumsum(T1, dim=0)
    T4 = fd.ops.set(T1)
    T5 = fd.ops.broadcast_in_dim(T2, shape=[6, 7, 14], broadcast_dims=[1, 2])
    T6 = fd.ops.cumsum(T0, dim=0)
    T7 = fd.ops.prod(T5, dims=[0, 2], keepdim=False)
    T8 = fd.ops.sign(T7)
    T9 = fd.ops.sub(T6, T0)
    T10 = fd.ops.cast(T5, dtype=DataType.Int)
    T11 = fd.ops.logical_and(T9, T6)
    T12 = fd.ops.logical_not(T2)
    T13 = fd.ops.bitwise_not(T0)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11,), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((1, 16), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((7, 14), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
