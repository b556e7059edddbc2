import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    vec = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    acc = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=False)
    spread = fd.ops.broadcast_in_dim(acc, shape=[64], broadcast_dims=[])
    total = fd.ops.sum(spread, dims=[0], keepdim=False)
    prod = fd.ops.mul(vec, spread)
    plus = fd.ops.add(vec, spread)
    fd.add_output(total, acc)
    fd.add_output(prod)
    fd.add_output(plus)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((64,), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
