import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False)
    S = fd.define_scalar(True, dtype=DataType.Bool)
    T1 = fd.ops.pad(T0, [1, 1], S)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 5), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
