import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[3, -1, -1, -1], contiguity=[True, False, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.segment_set(T0)
    T2 = fd.ops.isfinite(T0)
    T3 = fd.ops.atanh(T1)
    T4 = fd.ops.reshape(T2, new_shape=[13, 3, 9])
    T5 = fd.ops.bitwise_or(T4, True)
    T6 = fd.ops.isfinite(T1)
    T7 = fd.ops.broadcast_in_dim(T0, shape=[3, 13, 3, 3], broadcast_dims=[0, 1, 2, 3])
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 13, 3, 3), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
