import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 1, 12], contiguity=[True, True, None, True], dtype=DataType.Int, is_cpu=False, stride_order=[0, 2, 1, 3])
    T1 = fd.ops.max(T0, dims=[1, 2], keepdim=False)
    T2 = fd.ops.broadcast(T1, is_broadcast_dim=[True, False, False])
    T3 = fd.ops.broadcast_in_dim(T2, shape=[8, 1, 12, 12], broadcast_dims=[1, 2, 3])
    T4 = fd.ops.min(T0, dims=[0], keepdim=False)
    T5 = fd.ops.broadcast_in_dim(T4, shape=[12, 15, 1, 12], broadcast_dims=[1, 2, 3])
    T6 = fd.ops.cat([T2, T2], dim=2)
    T7 = fd.ops.prod(T4, dims=[0, 1], keepdim=True)
    T8 = fd.ops.logical_not(T4)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (2160,), dtype=torch.int64, device='cuda').as_strided((12, 15, 1, 12), (1, 12, 12, 180)),
]
fd.execute(inputs)
