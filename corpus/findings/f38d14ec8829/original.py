import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.ops.cat([T0, T0], dim=0)
    T2 = fd.ops.logical_and(T1, False)
    T3 = fd.ops.sum(T0, dims=[0], keepdim=True)
    T4 = fd.ops.cast(T1, dtype=DataType.BFloat16)
    T5 = fd.ops.lt(T3, 0)
    T6 = fd.ops.clamp(T4, -1.0, 1.0)
    T7 = fd.ops.set(T4)
    T8 = fd.ops.set(T0)
    T9 = fd.ops.segment_set(T5)
    T10 = fd.ops.bitwise_or(T0, False)
    T11 = fd.ops.cumprod(T3, dim=0)
    T12 = fd.ops.le(T7, 3.0)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((9,), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
