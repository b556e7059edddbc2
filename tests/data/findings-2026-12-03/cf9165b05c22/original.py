import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 9], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[2, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    T2 = fd.ops.div(T0, 2.0)
    T3 = fd.ops.broadcast_in_dim(T0, shape=[2, 1, 5, 9], broadcast_dims=[0, 3])
    T4 = fd.ops.cummax(T1, dim=0)
    T5 = fd.ops.log10(T2)
    T6 = fd.ops.cummax(T5, dim=1)
    T7 = fd.ops.cumsum(T3, dim=3)
    T8 = fd.ops.broadcast_in_dim(T7, shape=[2, 1, 5, 9], broadcast_dims=[0, 1, 2, 3])
    T9 = fd.ops.sum(T4, dims=[0], keepdim=False)
    T10 = fd.ops.pow(T8, T7)
    T11 = fd.ops.slice(T9, start_indices=[1], end_indices=[6])
    T12 = fd.ops.cast(T4, dtype=DataType.Double)
    T13 = fd.ops.cummax(T9, dim=0)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 9), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((2, 9), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
