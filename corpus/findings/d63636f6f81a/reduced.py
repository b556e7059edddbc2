import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, 1, 1, -1], contiguity=[True, None, None, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.expand(tv0, shape=[-1, 2, 3, -1])
    tv2 = fd.ops.cummin(tv1, dim=0)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 1, 1, 2), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
