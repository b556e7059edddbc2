import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 11, 5, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[6, 9, -1, 1], contiguity=[True, True, False, None], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 3], contiguity=[True, True], dtype=DataType.Double, is_cpu=False)
    T3 = fd.ops.cumprod(T0, dim=0)
    T4 = fd.ops.set(T1)
    T5 = fd.ops.maximum(T3, T0)
    T6 = fd.ops.cumprod(T2, dim=1)
    T7 = fd.ops.cumprod(T5, dim=3)
    T8 = fd.ops.cast(T1, dtype=DataType.Double)
    T9 = fd.ops.cast(T5, dtype=DataType.Int32)
    T10 = fd.ops.set(T6)
    T11 = fd.ops.expand(T4, shape=[-1, -1, -1, 1])
    T12 = fd.ops.cumprod(T10, dim=0)
    T13 = fd.ops.addcmul(T4, T4, T4, 0.5)
    T14 = fd.ops.set(T8)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((6, 11, 5, 8), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((6, 9, 11, 1), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((4, 3), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
