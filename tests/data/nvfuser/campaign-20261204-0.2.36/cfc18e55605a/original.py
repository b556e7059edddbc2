import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[14, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 3, 0, 2])
    T1 = fd.ops.set(T0)
    T2 = fd.ops.sub(T1, T0)
    T3 = fd.ops.cast(T2, dtype=DataType.Float)
    T4 = fd.ops.cummax(T3, dim=3)
    T5 = fd.ops.cast(T3, dtype=DataType.Int32)
    T6 = fd.ops.addcmul(T0, T1, T0, 0.5)
    T7 = fd.ops.permute(T2, dims=[1, 2, 0, 3])
    T8 = fd.ops.truediv(T2, 1.0)
    T9 = fd.ops.cumprod(T3, dim=1)
    T10 = fd.ops.cummin(T0, dim=1)
    T11 = fd.ops.remainder(T1, T9)
    T12 = fd.ops.cumsum(T6, dim=0)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T8)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(4200, dtype=torch.bfloat16, device='cuda').as_strided((14, 15, 4, 5), (4, 280, 1, 56)),
]
fd.execute(inputs)
