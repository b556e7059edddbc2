import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[6, -1, -1, 8], contiguity=[True, True, True, True], dtype=DataType.Double, is_cpu=False, stride_order=[2, 0, 1, 3])
    T1 = fd.ops.cumprod(T0, dim=2)
    T2 = fd.ops.erf(T1)
    T3 = fd.ops.slice(T1, start_indices=[1, 12, 1, 7], end_indices=[2, 13, 5, 8])
    T4 = fd.ops.cast(T3, dtype=DataType.Float)
    fd.add_output(T4)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(7392, dtype=torch.float64, device='cuda').as_strided((6, 14, 11, 8), (154, 1, 14, 924)),
]
fd.execute(inputs)
