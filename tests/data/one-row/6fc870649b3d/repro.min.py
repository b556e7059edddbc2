import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, 3, -1], contiguity=[True, True, True], dtype=DataType.Int32, is_cpu=False)
    tv1 = fd.ops.cat([tv0, tv0], dim=2)
    tv2 = fd.ops.gcd(tv1, 2)
    fd.add_output(tv2)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 3, 3), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
