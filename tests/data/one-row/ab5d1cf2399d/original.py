import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 15, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 2, 0, 3])
    T1 = fd.define_tensor(shape=[-1, 11, 1, 6], contiguity=[True, True, None, True], dtype=DataType.Double, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int32, is_cpu=False)
    T3 = fd.ops.min(T2, dims=[0], keepdim=True)
    T4 = fd.ops.erf(T1)
    T5 = fd.ops.clamp(T3, -1, 2)
    T6, T7, T8 = fd.ops.welford(T4, dims=[1, 2])
    T9 = fd.ops.log1p(T4)
    T10 = fd.ops.var(T6, dims=[1], correction=0, keepdim=True)
    T11 = fd.ops.broadcast(T10, is_broadcast_dim=[False, True, False])
    T12 = fd.ops.stride_order(T9, stride_order=[2, 0, 3, 1])
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T8)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(13860, dtype=torch.float32, device='cuda').as_strided((14, 11, 15, 6), (15, 210, 1, 2310)),
    torch.testing.make_tensor((14, 11, 1, 6), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((8,), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
