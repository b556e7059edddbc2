import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 6], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.ops.ceil(T0)
    T2 = fd.ops.set(T1)
    T3 = fd.ops.cast(T1, dtype=DataType.Float)
    T4 = fd.ops.cummin(T1, dim=0)
    fd.add_output(T4)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11, 6), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
