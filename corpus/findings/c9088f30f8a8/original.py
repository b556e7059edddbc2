import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 14], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.ops.logical_not(T0)
    T2 = fd.ops.permute(T0, dims=[1, 0])
    T3 = fd.ops.cat([T1, T1], dim=0)
    T4 = fd.ops.set(T2)
    T5 = fd.ops.logical_or(T4, T2)
    T6 = fd.ops.set(T2)
    T7 = fd.ops.cast(T3, dtype=DataType.BFloat16)
    T8 = fd.ops.cast(T2, dtype=DataType.Int)
    T9 = fd.ops.max(T7, dims=[0], keepdim=False)
    T10 = fd.ops.threshold(T7, 0.5, 0.0)
    T11 = fd.ops.cumsum(T10, dim=0)
    T12 = fd.ops.broadcast(T1, is_broadcast_dim=[False, False])
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T9)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((9, 14), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
