import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, -1, 13, 9], contiguity=[None, True, False, False], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.gt(T0, 2)
    T3 = fd.ops.where(T2, T0, -1)
    T4 = fd.ops.bitwise_or(T2, False)
    T5 = fd.ops.pad(T4, [1, 0, 0, 1, 0, 1, 0, 0], False)
    T6 = fd.ops.cast(T4, dtype=DataType.Double)
    T7 = fd.ops.prod(T3, dims=[0, 1, 3], keepdim=False)
    T8 = fd.ops.bitwise_not(T5)
    T9 = fd.ops.logical_not(T4)
    T10 = fd.ops.set(T6)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T2)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 13, 13, 9), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((2,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
