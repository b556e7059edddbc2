import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.ops.slice(T0, start_indices=[2], end_indices=[3])
    T2 = fd.ops.set(T0)
    T3 = fd.ops.sign(T1)
    T4 = fd.ops.broadcast_in_dim(T3, shape=[1, 7, 1], broadcast_dims=[0])
    fd.add_output(T4)
    fd.add_output(T2)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3,), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
