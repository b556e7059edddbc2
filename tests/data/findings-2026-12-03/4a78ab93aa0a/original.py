import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 1, 12], contiguity=[True, None, True], dtype=DataType.Double, is_cpu=False)
    T2 = fd.define_tensor(shape=[2, -1, 12], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False)
    T3 = fd.ops.logical_and(T2, T0)
    T4 = fd.ops.set(T3)
    T5 = fd.ops.broadcast_in_dim(T0, shape=[2, 8, 12], broadcast_dims=[0, 1, 2])
    T6 = fd.ops.broadcast_in_dim(T2, shape=[2, 2, 8, 12], broadcast_dims=[0, 2, 3])
    T7 = fd.ops.broadcast_in_dim(T1, shape=[2, 1, 12], broadcast_dims=[0, 1, 2])
    T8 = fd.ops.segment_set(T2)
    T9 = fd.ops.cummin(T5, dim=1)
    T10 = fd.ops.silu(T8)
    T11 = fd.ops.le(T7, T1)
    T12 = fd.ops.cast(T5, dtype=DataType.BFloat16)
    T13 = fd.ops.cast(T12, dtype=DataType.Double)
    T14 = fd.ops.cast(T5, dtype=DataType.Int32)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 8, 12), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((2, 1, 12), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((2, 8, 12), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
