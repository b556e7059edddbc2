import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    vec = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    first = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=False)
    second = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=False)
    spread = fd.ops.broadcast_in_dim(first, shape=[64], broadcast_dims=[])
    shifted = fd.ops.add(vec, spread)
    total = fd.ops.sum(shifted, dims=[0], keepdim=False)
    one = fd.define_scalar(1.0, dtype=DataType.Double)
    bumped = fd.ops.add(second, one)
    fd.add_output(total, second)
    fd.add_output(bumped, first)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((64,), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
