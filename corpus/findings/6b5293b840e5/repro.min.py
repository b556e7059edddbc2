import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    tv1 = fd.ops.where(tv0, tv0, False)
    tv2 = fd.ops.bitwise_not(tv1)
    tv3 = fd.ops.sum(tv2, dims=[0], keepdim=False)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1,), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
