import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 15, -1, 1], contiguity=[True, True, None, False], dtype=DataType.Int32, is_cpu=False, stride_order=[0, 2, 3, 1])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.ops.cat([T0, T0], dim=2)
    T3 = fd.ops.gcd(T2, 2)
    T4 = fd.ops.cumsum(T0, dim=0)
    T5 = fd.ops.cast(T0, dtype=DataType.Bool)
    T6 = fd.ops.bitwise_xor(T3, T2)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (315,), dtype=torch.int32, device='cuda').as_strided((7, 15, 3, 1), (1, 7, 105, 7)),
    torch.testing.make_tensor((8, 15), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
