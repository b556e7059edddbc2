import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.cummax(tv0, dim=0)
    tv2 = fd.ops.atan2(tv1, tv0)
    fd.add_output(tv1)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 2), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
