import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 1, -1, 1], contiguity=[True, None, True, None], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.maximum(T0, 0.0)
    T2 = fd.ops.truediv(T1, 0.0)
    T3 = fd.ops.lt(T2, T0)
    T4 = fd.ops.where(T3, T3, False)
    T5 = fd.ops.slice(T4, start_indices=[3, 0, 0, 0], end_indices=[4, 1, 5, 1])
    fd.add_output(T5)
    fd.add_output(T1)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 1, 5, 1), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
