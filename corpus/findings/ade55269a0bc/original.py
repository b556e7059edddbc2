import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.ops.set(T0)
    T2 = fd.ops.threshold(T1, 1, 0)
    T3 = fd.ops.add(T0, T1)
    T4 = fd.ops.logical_not(T0)
    T5 = fd.ops.where(T4, T4, True)
    T6 = fd.ops.segment_set(T3)
    T7 = fd.ops.broadcast_in_dim(T5, shape=[1, 14], broadcast_dims=[1])
    T8 = fd.ops.pad(T2, [0, 1])
    T9 = fd.ops.abs(T8)
    T10 = fd.ops.broadcast_in_dim(T3, shape=[1, 14], broadcast_dims=[1])
    T11 = fd.ops.sub(T9, -1)
    T12 = fd.ops.threshold(T2, 1, 0)
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
