import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[16, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0, 1])
    T1 = fd.ops.max(T0, dims=[1], keepdim=True)
    T2 = fd.ops.expm1(T1)
    T3 = fd.ops.addcmul(T2, T1, T2, 0.5)
    T4 = fd.ops.sum(T3, dims=[0, 1], keepdim=True)
    T5 = fd.ops.broadcast(T3, is_broadcast_dim=[False, False, True, True])
    T6 = fd.ops.cummin(T4, dim=1)
    T7 = fd.ops.cast(T1, dtype=DataType.Half)
    T8 = fd.ops.cumsum(T1, dim=0)
    T9 = fd.ops.cast(T8, dtype=DataType.Int32)
    T10 = fd.ops.tan(T0)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T7)
    fd.add_output(T6)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(224, dtype=torch.bfloat16, device='cuda').as_strided((16, 14), (1, 16)),
]
fd.execute(inputs)
