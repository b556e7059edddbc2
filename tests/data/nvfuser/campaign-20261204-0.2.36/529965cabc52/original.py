import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 2, -1], contiguity=[True, True, True, True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.ops.cumsum(T0, dim=1)
    T2 = fd.ops.cummax(T1, dim=1)
    T3 = fd.ops.logical_not(T1)
    T4 = fd.ops.sum(T0, dims=[0, 1, 2], keepdim=False)
    fd.add_output(T4)
    fd.add_output(T3)
    fd.add_output(T2)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((10, 8, 2, 7), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
