import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[12, 11], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.ops.ge(T0, -1.0)
    T2 = fd.ops.where(T1, T1, False)
    T3 = fd.ops.broadcast_in_dim(T1, shape=[12, 1, 11], broadcast_dims=[0, 2])
    T4 = fd.ops.bitwise_not(T2)
    T5 = fd.ops.cast(T1, dtype=DataType.Bool)
    T6 = fd.ops.sum(T4, dims=[1], keepdim=False)
    T7 = fd.ops.cast(T6, dtype=DataType.Double)
    fd.add_output(T7)
    fd.add_output(T5)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12, 11), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
