import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 15], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 15], contiguity=[True, True], dtype=DataType.Double, is_cpu=False)
    T2 = fd.ops.broadcast_in_dim(T1, shape=[5, 15, 7], broadcast_dims=[0, 1])
    T3 = fd.ops.cumprod(T1, dim=0)
    T4 = fd.ops.pad(T2, [0, 0, 1, 1, 0, 1])
    T5 = fd.ops.reshape(T4, new_shape=[21, 2, 17])
    T6 = fd.ops.cummin(T3, dim=0)
    T7 = fd.ops.reshape(T4, new_shape=[1, 6, 17, 7])
    T8 = fd.ops.cast(T1, dtype=DataType.BFloat16)
    T9 = fd.ops.prod(T7, dims=[1, 2], keepdim=False)
    T10 = fd.ops.broadcast_in_dim(T3, shape=[5, 1, 15, 3], broadcast_dims=[0, 2])
    T11 = fd.ops.set(T5)
    T12 = fd.ops.segment_set(T11)
    T13 = fd.ops.cast(T2, dtype=DataType.Bool)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T5)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((5, 15), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((5, 15), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
