import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, 2, 3], contiguity=[True, True, True], dtype=DataType.Bool, is_cpu=False)
    tv1 = fd.ops.bitwise_or(tv0, False)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 2, 3), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
