import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, 2], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.ops.broadcast_in_dim(tv0, shape=[2, 1, 2, 2], broadcast_dims=[0, 3])
    tv2 = fd.ops.cumsum(tv1, dim=3)
    tv3 = fd.ops.broadcast_in_dim(tv2, shape=[2, 1, 2, 2], broadcast_dims=[0, 1, 2, 3])
    tv4 = fd.ops.pow(tv3, tv2)
    fd.add_output(tv4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 2), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
