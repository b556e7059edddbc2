import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.ops.cast(T0, dtype=DataType.BFloat16)
    T2 = fd.ops.cast(T0, dtype=DataType.Float)
    T3 = fd.ops.broadcast_in_dim(T1, shape=[4, 2, 4], broadcast_dims=[0])
    T4 = fd.ops.cast(T0, dtype=DataType.Float)
    T5 = fd.ops.cumprod(T1, dim=0)
    T6 = fd.ops.abs(T0)
    T7 = fd.ops.log1p(T1)
    T8 = fd.ops.threshold(T1, 0.5, 0.0)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4,), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
