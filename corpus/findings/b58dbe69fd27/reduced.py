import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    tv1 = fd.ops.broadcast_in_dim(tv0, shape=[6, 7, 7], broadcast_dims=[1, 2])
    tv2 = fd.ops.prod(tv1, dims=[0, 2], keepdim=False)
    tv3 = fd.ops.sign(tv2)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((7, 7), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
