import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.broadcast_in_dim(tv0, shape=[4, 3, 10, 3], broadcast_dims=[0, 1, 2])
    tv2, tv3 = fd.ops.var_mean(tv1, dims=[0, 2, 3], correction=1, keepdim=False)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 3, 10), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
