import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, False, True], dtype=DataType.Bool, is_cpu=False, stride_order=[0, 2, 3, 1])
    T1 = fd.define_tensor(shape=[-1, 6], contiguity=[True, True], dtype=DataType.Double, is_cpu=False)
    T2 = fd.define_tensor(shape=[1, -1, 1, 1], contiguity=[None, None, None, True], dtype=DataType.Half, is_cpu=False, stride_order=[3, 0, 2, 1])
    T3 = fd.ops.set(T2)
    T4 = fd.ops.pad(T2, [0, 0, 0, 0, 0, 0, 0, 0])
    T5 = fd.ops.set(T0)
    T6 = fd.ops.where(T5, T5, T0)
    T7 = fd.ops.set(T5)
    T8 = fd.ops.bitwise_and(T6, T0)
    T9 = fd.ops.cast(T1, dtype=DataType.Half)
    T10 = fd.ops.bitwise_not(T8)
    T11 = fd.ops.logical_not(T0)
    T12 = fd.ops.sum(T5, dims=[2, 3], keepdim=False)
    T13 = fd.ops.sqrt(T9)
    T14 = fd.ops.set(T0)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 2, (2112,), dtype=torch.bool, device='cuda').as_strided((11, 8, 2, 12), (1, 132, 1056, 11)),
    torch.testing.make_tensor((2, 6), dtype=torch.float64, device='cuda'),
    torch.randn(8, dtype=torch.float16, device='cuda').as_strided((1, 8, 1, 1), (8, 1, 8, 8)),
]
fd.execute(inputs)
