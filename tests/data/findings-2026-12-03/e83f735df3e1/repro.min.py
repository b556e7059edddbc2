import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    tv1 = fd.ops.broadcast_in_dim(tv0, shape=[1, 1, 3], broadcast_dims=[0])
    tv2 = fd.ops.cummax(tv1, dim=0)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1,), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
