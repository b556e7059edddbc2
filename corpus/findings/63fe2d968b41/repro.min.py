import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, 2, 2, -1], contiguity=[True, True, True, True], dtype=DataType.Bool, is_cpu=False)
    tv1 = fd.ops.bitwise_xor(tv0, True)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 2, 2, 2), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
