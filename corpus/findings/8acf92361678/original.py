import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[11, -1, -1], contiguity=[True, True, False], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.set(T0)
    T2 = fd.ops.log(T0)
    T3 = fd.ops.cast(T0, dtype=DataType.BFloat16)
    T4 = fd.ops.sum(T3, dims=[0], keepdim=False)
    T5 = fd.ops.cast(T4, dtype=DataType.Int)
    T6 = fd.ops.cummin(T1, dim=2)
    T7 = fd.ops.bitwise_not(T5)
    T8 = fd.ops.cat([T3, T2], dim=0)
    T9 = fd.ops.cumsum(T8, dim=0)
    T10 = fd.ops.segment_set(T8)
    T11 = fd.ops.prod(T3, dims=[0, 2], keepdim=False)
    T12 = fd.ops.stride_order(T1, stride_order=[1, 0, 2])
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11, 13, 15), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
