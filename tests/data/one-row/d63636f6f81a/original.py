import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, 16], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[3, 1, 0, 2])
    T1 = fd.define_tensor(shape=[16, 1, 1, -1], contiguity=[True, None, None, True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.set(T1)
    T3 = fd.ops.var(T2, dims=[3], correction=0, keepdim=False)
    T4 = fd.ops.set(T1)
    T5 = fd.ops.sqrt(T0)
    T6, T7 = fd.ops.var_mean(T3, dims=[0, 1, 2], correction=1, keepdim=True)
    T8 = fd.ops.set(T5)
    T9 = fd.ops.cast(T2, dtype=DataType.Int32)
    T10 = fd.ops.expand(T2, shape=[-1, 8, 6, -1])
    T11 = fd.ops.cummin(T10, dim=0)
    T12 = fd.ops.lerp(T2, T4, 0.25)
    T13 = fd.ops.set(T1)
    T14 = fd.ops.addcmul(T2, T2, T2, 0.5)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(28672, dtype=torch.float32, device='cuda').as_strided((16, 8, 14, 16), (1792, 14, 1, 112)),
    torch.testing.make_tensor((16, 1, 1, 16), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
