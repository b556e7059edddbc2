import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 15, -1, 13], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 1, 3, 0])
    T1 = fd.ops.broadcast_in_dim(T0, shape=[10, 15, 2, 13], broadcast_dims=[0, 1, 2, 3])
    T2 = fd.ops.set(T0)
    T3 = fd.ops.relu(T1)
    T4 = fd.ops.broadcast(T2, is_broadcast_dim=[False, False, False, False])
    T5 = fd.ops.cumprod(T2, dim=1)
    T6 = fd.ops.permute(T4, dims=[0, 1, 3, 2])
    T7 = fd.ops.set(T0)
    T8 = fd.ops.gt(T4, 0.0)
    T9 = fd.ops.where(T8, T4, T1)
    fd.add_output(T9)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(3900, dtype=torch.float16, device='cuda').as_strided((10, 15, 2, 13), (195, 13, 1950, 1)),
]
fd.execute(inputs)
