import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Half, is_cpu=False)
    tv1 = fd.ops.neg(tv0)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
