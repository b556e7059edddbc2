import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.max(tv0, dims=[1], keepdim=False, dtype=DataType.Null)
    tv2 = fd.ops.broadcast_in_dim(tv1, shape=[64, 1], broadcast_dims=[0])
    tv3 = fd.ops.sub(tv0, tv2)
    tv4 = fd.ops.exp(tv3)
    tv5 = fd.ops.sum(tv4, dims=[1], keepdim=False, dtype=DataType.Null)
    tv6 = fd.ops.broadcast_in_dim(tv5, shape=[64, 1], broadcast_dims=[0])
    tv7 = fd.ops.div(tv4, tv6)
    fd.add_output(tv7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((64, 1024), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
