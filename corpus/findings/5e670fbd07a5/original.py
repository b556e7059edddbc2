import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[13, 3, 5, 5], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 3, 0])
    T1 = fd.ops.cumsum(T0, dim=2)
    T2 = fd.ops.broadcast_in_dim(T0, shape=[13, 3, 5, 5], broadcast_dims=[0, 1, 2, 3])
    T3 = fd.ops.cumsum(T0, dim=2)
    T4 = fd.ops.cumsum(T2, dim=2)
    T5 = fd.ops.broadcast(T3, is_broadcast_dim=[False, False, False, False])
    T6 = fd.ops.cast(T0, dtype=DataType.BFloat16)
    T7 = fd.ops.acos(T4)
    T8 = fd.ops.ge(T1, T2)
    T9 = fd.ops.set(T5)
    T10 = fd.ops.cumsum(T2, dim=0)
    T11 = fd.ops.cumsum(T0, dim=0)
    T12 = fd.ops.cast(T11, dtype=DataType.BFloat16)
    fd.add_output(T12)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T8)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(975, dtype=torch.bfloat16, device='cuda').as_strided((13, 3, 5, 5), (15, 5, 195, 1)),
]
fd.execute(inputs)
