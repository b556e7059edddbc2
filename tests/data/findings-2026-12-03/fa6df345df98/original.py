import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[6, -1, 9], contiguity=[True, True, True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.ops.broadcast_in_dim(T0, shape=[6, 4, 16, 9], broadcast_dims=[0, 2, 3])
    T2 = fd.ops.sum(T1, dims=[0, 3], keepdim=False)
    T3 = fd.ops.threshold(T2, 1, 0)
    T4 = fd.ops.sign(T1)
    T5 = fd.ops.cummax(T2, dim=0)
    T6 = fd.ops.cast(T3, dtype=DataType.Int32)
    T7 = fd.ops.logical_not(T0)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((6, 16, 9), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
