import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 3], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[0, 1])
    T1 = fd.ops.slice(T0, start_indices=[2, 2], end_indices=[3, 3])
    T2 = fd.ops.set(T1)
    T3 = fd.ops.threshold(T0, 0.5, 0.0)
    T4 = fd.ops.gt(T2, 0.5)
    T5 = fd.ops.cat([T4, T4], dim=0)
    T6 = fd.ops.set(T0)
    T7 = fd.ops.bitwise_not(T5)
    T8 = fd.ops.relu(T1)
    T9 = fd.ops.set(T8)
    T10 = fd.ops.broadcast(T0, is_broadcast_dim=[True, False, True, False])
    T11 = fd.ops.sum(T7, dims=[0, 1], keepdim=True)
    T12 = fd.ops.max(T0, dims=[0, 1], keepdim=True)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(9, dtype=torch.float32, device='cuda').as_strided((3, 3), (1, 3)),
]
fd.execute(inputs)
