import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 1, 9], contiguity=[True, None, True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.ops.expand(T0, shape=[-1, 4, -1])
    T2 = fd.ops.max(T1, dims=[2], keepdim=False)
    T3 = fd.ops.broadcast_in_dim(T0, shape=[2, 1, 1, 9], broadcast_dims=[0, 2, 3])
    T4 = fd.ops.threshold(T1, 1, 0)
    fd.add_output(T4)
    fd.add_output(T3)
    fd.add_output(T2)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 1, 9), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
