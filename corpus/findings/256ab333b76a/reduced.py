import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, -1], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False)
    tv1 = fd.ops.cat([tv0, tv0], dim=1)
    tv2 = fd.ops.cast(tv1, dtype=DataType.Int32)
    fd.add_output(tv2)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 1), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
