import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[11], contiguity=[False], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[11], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T3 = fd.ops.threshold(T1, 0.5, 0.0)
    T4 = fd.ops.broadcast_in_dim(T2, shape=[1, 4, 1], broadcast_dims=[1])
    T5 = fd.ops.reshape(T4, new_shape=[4])
    T6 = fd.ops.broadcast_in_dim(T2, shape=[1, 4, 1], broadcast_dims=[1])
    T7 = fd.ops.clamp(T2, -1, 2)
    T8 = fd.ops.set(T5)
    T9 = fd.ops.broadcast(T8, is_broadcast_dim=[True, True, False])
    T10 = fd.ops.abs(T2)
    T11 = fd.ops.mul(T4, 0)
    T12 = fd.ops.broadcast_in_dim(T5, shape=[4, 1, 7], broadcast_dims=[0])
    T13 = fd.ops.cummax(T12, dim=0)
    T14 = fd.ops.neg(T5)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T4)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11,), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((11,), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((4,), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
