import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[15, -1, 6], contiguity=[True, True, True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.ops.reshape(T0, new_shape=[30, 42])
    T2 = fd.ops.min(T1, dims=[0, 1], keepdim=True)
    T3 = fd.ops.clamp(T2, -1.0, 1.0)
    T4 = fd.ops.atanh(T0)
    T5 = fd.ops.broadcast(T4, is_broadcast_dim=[False, True, False, False])
    T6 = fd.ops.isposinf(T2)
    T7 = fd.ops.addcmul(T0, T4, T0, 0.5)
    T8 = fd.ops.set(T3)
    T9 = fd.ops.gt(T5, 3.0)
    T10 = fd.ops.where(T9, T5, 3.0)
    T11 = fd.ops.cat([T0, T7], dim=2)
    T12 = fd.ops.logical_not(T6)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15, 14, 6), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
