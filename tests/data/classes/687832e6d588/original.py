import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
    T2 = fd.ops.broadcast_in_dim(T1, shape=[64, 256], broadcast_dims=[1])
    T3 = fd.ops.add(T0, T2)
    S4 = fd.define_scalar(0.5, dtype=DataType.Double)
    T5 = fd.ops.mul(T3, S4)
    T6 = fd.ops.mul(T3, T3)
    T7 = fd.ops.mul(T6, T3)
    S8 = fd.define_scalar(0.044715, dtype=DataType.Double)
    T9 = fd.ops.mul(T7, S8)
    T10 = fd.ops.add(T3, T9)
    S11 = fd.define_scalar(0.797885, dtype=DataType.Double)
    T12 = fd.ops.mul(T10, S11)
    T13 = fd.ops.tanh(T12)
    S14 = fd.define_scalar(1.0, dtype=DataType.Double)
    T15 = fd.ops.add(T13, S14)
    T16 = fd.ops.mul(T5, T15)
    T17 = fd.ops.sum(T16, dims=[0], keepdim=False, dtype=DataType.Float)
    T18 = fd.ops.cast(T16, dtype=DataType.Half)
    fd.add_output(T18)
    fd.add_output(T17)
    fd.add_output(T7, T0)
    D0 = fd.ops.broadcast_in_dim(T1, shape=[64, 256], broadcast_dims=[1])
    fd.add_output(D0)
    fd.add_output(T7, T0)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [
    torch.randn(64, 256, device='cuda'),
    torch.randn(256, device='cuda'),
]
fd.execute(inputs)
