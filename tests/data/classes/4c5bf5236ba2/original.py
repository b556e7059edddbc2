import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 9], contiguity=[True, False], dtype=DataType.Double, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, 9], contiguity=[None, True], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.ops.cumsum(T0, dim=1)
    T3, T4, T5 = fd.ops.welford(T0, dims=[0])
    T6 = fd.ops.ne(T2, 0.5)
    T7 = fd.ops.cast(T1, dtype=DataType.Half)
    T8 = fd.ops.reshape(T5, new_shape=[3, 1, 1, 3])
    T9 = fd.ops.bitwise_not(T8)
    T10 = fd.ops.bitwise_not(T6)
    T11 = fd.ops.cummin(T9, dim=3)
    T12 = fd.ops.stride_order(T2, stride_order=[0, 1])
    T13 = fd.ops.set(T8)
    T14 = fd.ops.sum(T8, dims=[0], keepdim=False)
    T15 = fd.ops.cumprod(T14, dim=0)
    fd.add_output(T15)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T6)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((16, 9), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((1, 9), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
