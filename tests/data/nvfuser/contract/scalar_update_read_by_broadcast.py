import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    vec = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    acc = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=False)
    one = fd.define_scalar(1.0, dtype=DataType.Double)
    bumped = fd.ops.add(acc, one)
    spread = fd.ops.broadcast_in_dim(bumped, shape=[64], broadcast_dims=[])
    scaled = fd.ops.mul(vec, spread)
    fd.add_output(bumped, acc)
    fd.add_output(scaled)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((64,), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
