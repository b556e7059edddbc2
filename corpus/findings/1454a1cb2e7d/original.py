import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[6, 7, -1, -1], contiguity=[False, False, True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[1, 3, 2, 0])
    T1 = fd.define_tensor(shape=[-1, 7, 1, 16], contiguity=[True, True, False, None], dtype=DataType.Int, is_cpu=False, stride_order=[1, 3, 0, 2])
    T2 = fd.define_tensor(shape=[-1, 9, 1], contiguity=[True, False, None], dtype=DataType.Int, is_cpu=False)
    T3 = fd.ops.bitwise_not(T2)
    S4 = fd.define_scalar(-1, dtype=DataType.Int)
    S5 = fd.define_scalar(2, dtype=DataType.Int)
    T6 = fd.ops.clamp(T2, S4, S5)
    T7 = fd.ops.sum(T2, dims=[1], keepdim=True)
    S8 = fd.define_scalar(1, dtype=DataType.Int)
    T9 = fd.ops.ge(T2, S8)
    S10 = fd.define_scalar(False, dtype=DataType.Bool)
    T11 = fd.ops.ne(T0, S10)
    T12 = fd.ops.bitwise_right_shift(T3, T2)
    T13 = fd.ops.cumsum(T6, dim=1)
    T14 = fd.ops.expand(T9, shape=[-1, -1, 2])
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 2, (2016,), dtype=torch.bool, device='cuda').as_strided((6, 7, 3, 16), (16, 288, 96, 1)),
    torch.randint(0, 10, (672,), dtype=torch.int64, device='cuda').as_strided((6, 7, 1, 16), (1, 96, 1, 6)),
    torch.testing.make_tensor((10, 9, 1), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
