import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.ops.bitwise_and(T0, True)
    T2 = fd.ops.cat([T1, T1], dim=0)
    T3 = fd.ops.segment_set(T2)
    T4 = fd.ops.cast(T2, dtype=DataType.Float)
    T5 = fd.ops.set(T2)
    T6 = fd.ops.cast(T2, dtype=DataType.Double)
    T7 = fd.ops.permute(T1, dims=[0])
    T8 = fd.ops.cast(T2, dtype=DataType.Double)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((14,), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
