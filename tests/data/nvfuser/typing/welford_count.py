import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1, T2, T3 = fd.ops.welford(T0, dims=[1])
    fd.add_output(T1)
    fd.add_output(T2)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 5), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
