import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[15, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.ops.cumsum(T0, dim=0)
    T2 = fd.ops.max(T0, dims=[0], keepdim=False)
    S3 = fd.define_scalar(-1, dtype=DataType.Int)
    T4 = fd.ops.bitwise_left_shift(T2, S3)
    T5 = fd.ops.broadcast_in_dim(T4, shape=[13, 7], broadcast_dims=[0])
    fd.add_output(T5)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15, 13), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
