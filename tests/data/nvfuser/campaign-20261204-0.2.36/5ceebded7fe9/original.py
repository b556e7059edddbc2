import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 4, -1], contiguity=[False, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 2, 0])
    T1 = fd.define_tensor(shape=[-1, 2, 2], contiguity=[True, True, True], dtype=DataType.Double, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 1, 15, -1], contiguity=[True, None, True, False], dtype=DataType.Double, is_cpu=False)
    T3, T4, T5 = fd.ops.welford(T1, dims=[2])
    T6 = fd.ops.sub(T5, 3)
    T7 = fd.ops.prod(T1, dims=[0], keepdim=False)
    T8 = fd.ops.pad(T4, [1, 1], 2.0)
    T9 = fd.ops.broadcast(T7, is_broadcast_dim=[True, False, False])
    T10 = fd.ops.cummax(T5, dim=0)
    T11 = fd.ops.slice(T4, start_indices=[0, 0], end_indices=[3, 1])
    T12 = fd.ops.pow(T7, 0.0)
    T13 = fd.ops.cumsum(T10, dim=0)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(240, dtype=torch.float32, device='cuda').as_strided((4, 4, 15), (15, 60, 1)),
    torch.testing.make_tensor((7, 2, 2), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((12, 1, 15, 16), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
