import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, 3], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.ops.cumsum(tv0, dim=0)
    tv2 = fd.ops.maximum(tv1, 1.0)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 3), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
