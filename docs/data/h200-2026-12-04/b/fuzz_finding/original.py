import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[9], contiguity=[True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.define_tensor(shape=[11], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Half, is_cpu=False)
    T3 = fd.ops.tanh(T0)
    T4 = fd.ops.cast(T0, dtype=DataType.Int)
    T5 = fd.ops.minimum(T0, T3)
    T6 = fd.ops.remainder(T5, T3)
    T7 = fd.ops.minimum(T2, T5)
    T8 = fd.ops.segment_set(T4)
    T9 = fd.ops.cumsum(T2, dim=0)
    T10 = fd.ops.pow(T2, T9)
    T11 = fd.ops.gt(T3, 1.0)
    T12 = fd.ops.where(T11, T3, T9)
    fd.add_output(T12)
    fd.add_output(T10)
    fd.add_output(T8)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((9,), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((11,), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((9,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
