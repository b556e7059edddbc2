import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[15], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 15, -1, 9], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T3 = fd.ops.eq(T0, True)
    T4 = fd.ops.set(T3)
    T5 = fd.ops.cast(T1, dtype=DataType.Float)
    T6 = fd.ops.cast(T2, dtype=DataType.Int32)
    T7 = fd.ops.logical_not(T4)
    T8 = fd.ops.where(T0, T0, False)
    T9 = fd.ops.set(T7)
    T10 = fd.ops.minimum(T2, T6)
    T11 = fd.ops.set(T8)
    T12 = fd.ops.cumprod(T5, dim=0)
    T13 = fd.ops.broadcast(T8, is_broadcast_dim=[False])
    T14 = fd.ops.logical_and(T1, T5)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15,), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((4, 15, 4, 9), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((4,), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
