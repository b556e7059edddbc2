import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[16, 10, -1], contiguity=[True, True, True], dtype=DataType.Double, is_cpu=False, stride_order=[1, 0, 2])
    T1 = fd.ops.slice(T0, start_indices=[0, 5, 8], end_indices=[3, 6, 12])
    T2 = fd.ops.cast(T1, dtype=DataType.Float)
    T3 = fd.ops.cummin(T1, dim=0)
    T4 = fd.ops.gt(T3, 3.0)
    T5 = fd.ops.where(T4, T3, 1.0)
    fd.add_output(T5)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(2400, dtype=torch.float64, device='cuda').as_strided((16, 10, 15), (10, 1, 160)),
]
fd.execute(inputs)
