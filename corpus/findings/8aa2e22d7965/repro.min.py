import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False)
    tv1 = fd.ops.cumprod(tv0, dim=0)
    tv2 = fd.ops.sub(tv1, 1.0)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 4, 6), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
