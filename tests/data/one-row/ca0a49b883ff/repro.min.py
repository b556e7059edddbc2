import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    tv1 = fd.ops.ceil(tv0)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
