import torch
from torch._C._nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(symbolic_sizes=[-1, -1], contiguous=[True, True], dtype=DataType.Float)
    T1 = fd.define_tensor(symbolic_sizes=[-1], contiguous=[True], dtype=DataType.Float)
    T2 = fd.ops.broadcast_in_dim(T1, output_shape=[64, 256], broadcast_dims=[1])
    T3 = fd.ops.add(T0, T2)
    S4 = fd.define_constant(0.500000)
    T5 = fd.ops.mul(T3, S4)
    T6 = fd.ops.mul(T3, T3)
    T7 = fd.ops.mul(T6, T3)
    S8 = fd.define_constant(0.0447150)
    T9 = fd.ops.mul(T7, S8)
    T10 = fd.ops.add(T3, T9)
    S11 = fd.define_constant(0.797885)
    T12 = fd.ops.mul(T10, S11)
    T13 = fd.ops.tanh(T12)
    S14 = fd.define_constant(1.00000)
    T15 = fd.ops.add(T13, S14)
    T16 = fd.ops.mul(T5, T15)
    T17 = fd.ops.sum(T16, axes=[0], keepdim=False, dtype=DataType.Float)
    T18 = fd.ops.cast(T16, dtype=DataType.Half)
    fd.add_output(T18)
    fd.add_output(T17)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [
    torch.randn(64, 256, device='cuda'),
    torch.randn(256, device='cuda'),
]
fd.execute(inputs)
