import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 0, 1])
    T1 = fd.ops.logical_or(T0, -1.0)
    T2 = fd.ops.set(T1)
    T3 = fd.ops.broadcast(T1, is_broadcast_dim=[False, True, False, False])
    T4 = fd.ops.threshold(T0, 0.5, 0.0)
    T5 = fd.ops.set(T2)
    T6 = fd.ops.broadcast_in_dim(T2, shape=[14, 5, 14], broadcast_dims=[0, 1, 2])
    T7 = fd.ops.sum(T4, dims=[0, 1], keepdim=False)
    T8 = fd.ops.neg(T4)
    T9 = fd.ops.cast(T8, dtype=DataType.Double)
    T10 = fd.ops.cat([T4, T8], dim=2)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T7)
    fd.add_output(T6)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(980, dtype=torch.float16, device='cuda').as_strided((14, 5, 14), (70, 1, 5)),
]
fd.execute(inputs)
