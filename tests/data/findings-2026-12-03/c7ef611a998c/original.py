import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 11, -1, 10], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 12], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 6], contiguity=[True, True], dtype=DataType.Double, is_cpu=False)
    T3 = fd.ops.stride_order(T1, stride_order=[0, 1])
    T4 = fd.ops.cast(T2, dtype=DataType.BFloat16)
    T5 = fd.ops.truediv(T0, 3.0)
    T6 = fd.ops.cast(T3, dtype=DataType.Int32)
    T7 = fd.ops.isneginf(T4)
    T8 = fd.ops.cat([T4, T4], dim=1)
    T9 = fd.ops.logical_not(T7)
    T10 = fd.ops.segment_set(T0)
    T11 = fd.ops.pad(T5, [0, 2, 2, 0, 0, 0, 1, 2], 3.0)
    T12 = fd.ops.reshape(T6, new_shape=[30, 6])
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((10, 11, 4, 10), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((15, 12), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((5, 6), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
