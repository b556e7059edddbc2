import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[10], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.broadcast_in_dim(T0, shape=[9, 1], broadcast_dims=[0])
    T3 = fd.ops.broadcast_in_dim(T1, shape=[3, 1, 10], broadcast_dims=[2])
    T4 = fd.ops.clamp(T2, -1.0, 1.0)
    T5 = fd.ops.atanh(T3)
    T6 = fd.ops.le(T0, 0.5)
    T7 = fd.ops.set(T5)
    T8 = fd.ops.cumsum(T7, dim=1)
    T9 = fd.ops.neg(T5)
    T10 = fd.ops.cumsum(T4, dim=1)
    T11 = fd.ops.pad(T8, [1, 2], 0.5)
    T12 = fd.ops.set(T5)
    T13 = fd.ops.silu(T5)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((9,), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((10,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
