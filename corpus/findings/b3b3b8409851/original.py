import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, -1, 12, -1], contiguity=[None, True, True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.ops.broadcast_in_dim(T0, shape=[1, 15, 12, 7], broadcast_dims=[0, 1, 2, 3])
    T2 = fd.ops.acosh(T0)
    T3 = fd.ops.segment_set(T1)
    T4 = fd.ops.gt(T1, 3.0)
    T5 = fd.ops.where(T4, T1, T0)
    T6 = fd.ops.clamp(T0, -1.0, 1.0)
    T7 = fd.ops.prod(T6, dims=[0, 2, 3], keepdim=False)
    fd.add_output(T7)
    fd.add_output(T5)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 15, 12, 7), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
