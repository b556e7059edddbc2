import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[15], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False)
    T2 = fd.define_tensor(shape=[8, 6], contiguity=[True, False], dtype=DataType.BFloat16, is_cpu=False)
    T3 = fd.ops.ge(T2, 0.5)
    T4 = fd.ops.where(T3, T3, True)
    T5 = fd.ops.logical_or(T0, True)
    T6 = fd.ops.threshold(T1, 1, 0)
    T7 = fd.ops.where(T0, T0, T5)
    T8 = fd.ops.set(T4)
    T9 = fd.ops.broadcast_in_dim(T2, shape=[8, 6], broadcast_dims=[0, 1])
    T10 = fd.ops.broadcast_in_dim(T8, shape=[8, 5, 6], broadcast_dims=[0, 2])
    T11 = fd.ops.cast(T3, dtype=DataType.Bool)
    T12 = fd.ops.permute(T8, dims=[1, 0])
    T13 = fd.ops.where(T5, T5, True)
    T14 = fd.ops.set(T4)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15,), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((14, 13), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((8, 6), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
