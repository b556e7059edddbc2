import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.define_tensor(shape=[13], contiguity=[True], dtype=DataType.Double, is_cpu=False)
    T2 = fd.ops.bitwise_not(T0)
    T3 = fd.ops.segment_set(T0)
    T4 = fd.ops.max(T1, dims=[0], keepdim=True)
    T5 = fd.ops.bitwise_or(T2, T3)
    T6 = fd.ops.cast(T4, dtype=DataType.BFloat16)
    T7 = fd.ops.broadcast(T3, is_broadcast_dim=[False])
    T8 = fd.ops.sum(T6, dims=[0], keepdim=True)
    T9 = fd.ops.clamp(T4, -1.0, 1.0)
    T10 = fd.ops.cast(T9, dtype=DataType.Float)
    T11 = fd.ops.cumprod(T6, dim=0)
    T12 = fd.ops.log2(T11)
    fd.add_output(T12)
    fd.add_output(T10)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((13,), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((13,), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
