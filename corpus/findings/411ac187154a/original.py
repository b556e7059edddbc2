import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[3, 13, -1], contiguity=[False, True, False], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0, 1, 2])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[0, 1, 2])
    T3 = fd.ops.set(T0)
    T4 = fd.ops.cumprod(T3, dim=1)
    T5 = fd.ops.threshold(T4, 0.5, 0.0)
    T6 = fd.ops.set(T0)
    T7 = fd.ops.where(T2, T2, False)
    T8 = fd.ops.tan(T3)
    T9 = fd.ops.atanh(T1)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(78, dtype=torch.bfloat16, device='cuda').as_strided((3, 13, 2), (1, 3, 39)),
    torch.testing.make_tensor((4, 2), dtype=torch.bfloat16, device='cuda'),
    torch.randint(0, 2, (78,), dtype=torch.bool, device='cuda').as_strided((3, 13, 2), (1, 3, 39)),
]
fd.execute(inputs)
