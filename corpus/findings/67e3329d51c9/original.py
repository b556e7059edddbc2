import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Double, is_cpu=False)
    T1 = fd.define_tensor(shape=[7, 1], contiguity=[False, None], dtype=DataType.Int, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 4], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    T3 = fd.ops.broadcast(T2, is_broadcast_dim=[False, False])
    T4 = fd.ops.sqrt(T2)
    T5 = fd.ops.max(T1, dims=[0], keepdim=False)
    T6 = fd.ops.squeeze(T1, dims=[1])
    T7 = fd.ops.threshold(T1, 1, 0)
    T8 = fd.ops.atan2(T2, T3)
    T9 = fd.ops.cosh(T0)
    T10 = fd.ops.bitwise_or(T5, T6)
    T11, T12, T13 = fd.ops.welford(T8, dims=[0])
    T14 = fd.ops.cummin(T9, dim=1)
    T15 = fd.ops.prod(T10, dims=[0], keepdim=True)
    T16 = fd.ops.logical_or(T10, 2)
    fd.add_output(T16)
    fd.add_output(T15)
    fd.add_output(T14)
    fd.add_output(T13)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((7, 1), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((7, 1), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((7, 4), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
