import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[8, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0, 1, 3, 2])
    T1 = fd.define_tensor(shape=[1, -1, 1, 1], contiguity=[None, True, None, None], dtype=DataType.Float, is_cpu=False, stride_order=[1, 2, 3, 0])
    T2 = fd.define_tensor(shape=[-1, 15, -1, 1], contiguity=[True, True, True, None], dtype=DataType.Double, is_cpu=False, stride_order=[1, 3, 2, 0])
    T3 = fd.ops.prod(T1, dims=[0, 1], keepdim=False)
    T4 = fd.ops.reciprocal(T0)
    T5 = fd.ops.cast(T2, dtype=DataType.Bool)
    T6 = fd.ops.broadcast_in_dim(T5, shape=[12, 15, 14, 1], broadcast_dims=[0, 1, 2, 3])
    T7 = fd.ops.cumsum(T4, dim=1)
    T8 = fd.ops.set(T2)
    T9 = fd.ops.cat([T7, T0], dim=3)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T6)
    fd.add_output(T3)
    fd.add_output(T7)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(896, dtype=torch.bfloat16, device='cuda').as_strided((8, 14, 2, 4), (1, 8, 448, 112)),
    torch.randn(14, dtype=torch.float32, device='cuda').as_strided((1, 14, 1, 1), (1, 1, 14, 1)),
    torch.randn(2520, dtype=torch.float64, device='cuda').as_strided((12, 15, 14, 1), (1, 168, 12, 1)),
]
fd.execute(inputs)
