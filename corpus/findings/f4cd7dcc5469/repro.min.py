import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Bool, is_cpu=False, stride_order=[])
    tv1 = fd.ops.where(tv0, tv0, True)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
