import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[14, 3, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.sum(tv0, dims=[0, 3], keepdim=False)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((14, 3, 3, 15), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
