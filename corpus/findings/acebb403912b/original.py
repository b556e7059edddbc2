import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[2, 16, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0, 3])
    T1 = fd.ops.pow(T0, 0.5)
    T2 = fd.ops.set(T0)
    T3 = fd.ops.segment_set(T2)
    T4 = fd.ops.ge(T1, T3)
    T5 = fd.ops.set(T1)
    T6 = fd.ops.cat([T3, T3], dim=1)
    T7 = fd.ops.reciprocal(T0)
    T8 = fd.ops.bitwise_and(T4, True)
    T9 = fd.ops.cat([T5, T5], dim=2)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(2016, dtype=torch.float32, device='cuda').as_strided((2, 16, 9, 7), (144, 9, 1, 288)),
]
fd.execute(inputs)
