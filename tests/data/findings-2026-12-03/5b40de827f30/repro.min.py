import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[15, 7, -1, 1], contiguity=[True, True, True, None], dtype=DataType.Double, is_cpu=False)
    T1 = fd.define_tensor(shape=[6, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0, 2, 3, 1])
    T2 = fd.define_tensor(shape=[15, 7, -1, 1], contiguity=[True, True, True, None], dtype=DataType.Double, is_cpu=False)
    T3 = fd.ops.neg(T2)
    T4 = fd.ops.cumsum(T2, dim=0)
    T5 = fd.ops.lerp(T3, 2.0, 0.25)
    T6 = fd.ops.truediv(T4, 3.0)
    fd.add_output(T6)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15, 7, 5, 1), dtype=torch.float64, device='cuda'),
    torch.randn(1344, dtype=torch.bfloat16, device='cuda').as_strided((6, 2, 8, 14), (1, 84, 168, 6)),
    torch.testing.make_tensor((15, 7, 5, 1), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
