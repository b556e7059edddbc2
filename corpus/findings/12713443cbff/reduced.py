import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, 1, 3], contiguity=[True, True, None, True], dtype=DataType.Int, is_cpu=False)
    tv1 = fd.ops.min(tv0, dims=[0], keepdim=False)
    tv2 = fd.ops.prod(tv1, dims=[0, 1], keepdim=True)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 1, 1, 3), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
