import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[13], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.define_tensor(shape=[13], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.define_tensor(shape=[13], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    T3 = fd.ops.broadcast_in_dim(T0, shape=[13], broadcast_dims=[0])
    T4 = fd.ops.cumprod(T2, dim=0)
    T5 = fd.ops.cat([T2, T4], dim=0)
    T6 = fd.ops.cosh(T1)
    T7 = fd.ops.round(T4)
    T8 = fd.ops.cast(T4, dtype=DataType.Int)
    T9 = fd.ops.gt(T2, 3.0)
    T10 = fd.ops.broadcast(T9, is_broadcast_dim=[True, False])
    T11 = fd.ops.cummax(T6, dim=0)
    T12 = fd.ops.logical_not(T3)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((13,), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((13,), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((13,), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
