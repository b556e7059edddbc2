import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 4, 1], contiguity=[True, True, True, None], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.expand(T0, shape=[-1, -1, -1, 1])
    T2 = fd.ops.truediv(T1, T0)
    T3 = fd.ops.cumprod(T1, dim=3)
    T4, T5, T6 = fd.ops.welford(T0, dims=[0, 1])
    T7 = fd.ops.min(T4, dims=[1], keepdim=False)
    T8 = fd.ops.cast(T2, dtype=DataType.Int)
    T9 = fd.ops.segment_set(T7)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 11, 4, 1), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
