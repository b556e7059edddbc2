import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.cat([T0, T0], dim=1)
    T2, T3, T4 = fd.ops.welford(T1, dims=[0])
    fd.add_output(T4)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 2), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
