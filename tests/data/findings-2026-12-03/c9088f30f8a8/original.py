import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[3, -1, -1], contiguity=[True, True, True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1, 1], contiguity=[False, False, None], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[1, 10, 1], contiguity=[None, None, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0, 2])
    T3 = fd.ops.lerp(T1, T2, 0.25)
    T4 = fd.ops.lerp(T3, T1, 0.25)
    T5 = fd.ops.lerp(T2, T3, 0.25)
    T6 = fd.ops.threshold(T2, 0.5, 0.0)
    T7 = fd.ops.stride_order(T1, stride_order=[1, 2, 0])
    T8 = fd.ops.pad(T3, [0, 0], 2.0)
    T9 = fd.ops.cat([T4, T3], dim=0)
    T10 = fd.ops.cast(T1, dtype=DataType.Int)
    T11 = fd.ops.squeeze(T4, dims=[2])
    T12 = fd.ops.bitwise_not(T10)
    T13 = fd.ops.logical_or(T6, 2.0)
    T14 = fd.ops.set(T8)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 10, 13), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((3, 10, 1), dtype=torch.float16, device='cuda'),
    torch.randn(10, dtype=torch.float16, device='cuda').as_strided((1, 10, 1), (10, 1, 10)),
]
fd.execute(inputs)
