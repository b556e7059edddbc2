import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[6, -1, 11, 1], contiguity=[True, True, True, None], dtype=DataType.Half, is_cpu=False)
    T1 = fd.ops.sum(T0, dims=[0, 1, 2], keepdim=True)
    T2 = fd.ops.slice(T0, start_indices=[0, 6, 6, 0], end_indices=[6, 7, 7, 1])
    T3 = fd.ops.mul(T2, T1)
    T4 = fd.ops.set(T1)
    T5 = fd.ops.cos(T3)
    T6 = fd.ops.segment_set(T0)
    T7 = fd.ops.broadcast(T5, is_broadcast_dim=[False, False, False, False])
    T8 = fd.ops.set(T1)
    T9 = fd.ops.cumsum(T6, dim=0)
    T10 = fd.ops.cast(T1, dtype=DataType.Double)
    T11 = fd.ops.cumsum(T8, dim=1)
    T12 = fd.ops.segment_set(T2)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T9)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((6, 7, 11, 1), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
