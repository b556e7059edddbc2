import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[0, 1])
    T1 = fd.ops.clamp(T0, -1, 2)
    T2 = fd.ops.broadcast_in_dim(T1, shape=[4, 16], broadcast_dims=[0, 1])
    T3 = fd.ops.cummax(T1, dim=0)
    T4 = fd.ops.cumprod(T3, dim=1)
    T5 = fd.ops.set(T4)
    T6 = fd.ops.cumprod(T3, dim=0)
    T7 = fd.ops.cast(T4, dtype=DataType.Half)
    T8 = fd.ops.cast(T3, dtype=DataType.Double)
    T9 = fd.ops.broadcast(T7, is_broadcast_dim=[False, False])
    T10 = fd.ops.threshold(T5, 1, 0)
    T11 = fd.ops.threshold(T0, 1, 0)
    T12 = fd.ops.minimum(T4, 2)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (64,), dtype=torch.int64, device='cuda').as_strided((4, 16), (1, 4)),
]
fd.execute(inputs)
