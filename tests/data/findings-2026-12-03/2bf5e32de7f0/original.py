import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1], contiguity=[None], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.ops.mul(T0, 3)
    T2 = fd.ops.segment_set(T0)
    T3 = fd.ops.segment_set(T1)
    T4 = fd.ops.abs(T0)
    T5 = fd.ops.cast(T1, dtype=DataType.Bool)
    T6 = fd.ops.le(T0, 0)
    T7 = fd.ops.bitwise_and(T5, T6)
    T8 = fd.ops.cast(T3, dtype=DataType.Double)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T4)
    fd.add_output(T2)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1,), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
