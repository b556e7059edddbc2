import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, 13], contiguity=[True, False, True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.prod(T0, dims=[3], keepdim=False)
    T2 = fd.ops.broadcast_in_dim(T1, shape=[16, 6, 10, 13], broadcast_dims=[0, 1, 2])
    T3 = fd.ops.expm1(T2)
    T4, T5 = fd.ops.var_mean(T3, dims=[0, 2, 3], correction=1, keepdim=False)
    T6 = fd.ops.clamp(T5, -1.0, 1.0)
    T7 = fd.ops.gt(T0, 0.0)
    T8 = fd.ops.where(T7, T0, T3)
    T9 = fd.ops.broadcast_in_dim(T8, shape=[16, 6, 10, 13], broadcast_dims=[0, 1, 2, 3])
    fd.add_output(T9)
    fd.add_output(T6)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((16, 6, 10, 13), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
