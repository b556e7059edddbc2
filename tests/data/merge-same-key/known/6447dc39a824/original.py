import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[7, -1], contiguity=[True, False], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 1, 6], contiguity=[True, None, True], dtype=DataType.Int32, is_cpu=False, stride_order=[0, 1, 2])
    T2 = fd.ops.expand(T1, shape=[-1, 8, -1])
    T3 = fd.ops.cast(T0, dtype=DataType.Int32)
    T4 = fd.ops.cast(T1, dtype=DataType.Bool)
    T5 = fd.ops.gt(T0, -1.0)
    T6 = fd.ops.cast(T0, dtype=DataType.Double)
    T7 = fd.ops.exp(T6)
    T8 = fd.ops.cat([T2, T2], dim=0)
    T9 = fd.ops.minimum(T0, 2.0)
    T10 = fd.ops.clamp(T8, -1, 2)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T7)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((7, 14), dtype=torch.bfloat16, device='cuda'),
    torch.randint(0, 10, (54,), dtype=torch.int32, device='cuda').as_strided((9, 1, 6), (1, 9, 9)),
]
fd.execute(inputs)
