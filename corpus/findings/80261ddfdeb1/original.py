import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, 13], contiguity=[True, True, True, True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.define_tensor(shape=[16, 13, 9], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.broadcast_in_dim(T0, shape=[7, 2, 14, 13], broadcast_dims=[0, 1, 2, 3])
    T3 = fd.ops.broadcast_in_dim(T1, shape=[16, 13, 9], broadcast_dims=[0, 1, 2])
    T4 = fd.ops.set(T1)
    T5 = fd.ops.remainder(T1, T4)
    T6 = fd.ops.sinh(T5)
    T7 = fd.ops.set(T0)
    T8 = fd.ops.cumprod(T4, dim=1)
    T9 = fd.ops.broadcast_in_dim(T3, shape=[16, 13, 9, 1], broadcast_dims=[0, 1, 2])
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((7, 2, 14, 13), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((16, 13, 9), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
