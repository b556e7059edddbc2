import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 5, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.ops.cast(T0, dtype=DataType.Half)
    T2 = fd.ops.cumprod(T1, dim=1)
    T3 = fd.ops.segment_set(T2)
    T4 = fd.ops.slice(T1, start_indices=[2, 1, 2, 5], end_indices=[3, 5, 3, 13])
    T5 = fd.ops.cast(T4, dtype=DataType.Float)
    T6 = fd.ops.fmod(T4, 3.0)
    T7 = fd.ops.sum(T1, dims=[0, 3], keepdim=False)
    T8 = fd.ops.cast(T1, dtype=DataType.Bool)
    T9 = fd.ops.set(T5)
    T10 = fd.ops.cast(T1, dtype=DataType.Half)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((5, 5, 3, 13), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
