import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[13, 15], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, 1], contiguity=[None, None], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.define_tensor(shape=[13, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0, 1])
    T3 = fd.ops.expand(T1, shape=[7, 6])
    T4 = fd.ops.bitwise_not(T0)
    T5 = fd.ops.cumsum(T2, dim=0)
    T6 = fd.ops.cast(T1, dtype=DataType.Half)
    T7 = fd.ops.cat([T2, T5], dim=1)
    T8 = fd.ops.logical_not(T4)
    T9 = fd.ops.cummin(T7, dim=1)
    T10 = fd.ops.cast(T5, dtype=DataType.Int32)
    T11 = fd.ops.segment_set(T5)
    T12 = fd.ops.atanh(T11)
    T13 = fd.ops.logical_not(T4)
    T14 = fd.ops.broadcast(T8, is_broadcast_dim=[False, True, False, True])
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T10)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((13, 15), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((1, 1), dtype=torch.bfloat16, device='cuda'),
    torch.randn(195, dtype=torch.bfloat16, device='cuda').as_strided((13, 15), (1, 13)),
]
fd.execute(inputs)
