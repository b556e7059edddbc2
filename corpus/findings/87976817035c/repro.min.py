import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[10, 10, 2], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False)
    tv1 = fd.ops.atan2(tv0, 1.0)
    tv2 = fd.ops.cumprod(tv1, dim=0)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((10, 10, 2), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
