import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[6, 3, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 3, 0, 1])
    T1 = fd.define_tensor(shape=[6, 1, 1, 1], contiguity=[None, None, True, None], dtype=DataType.Double, is_cpu=False, stride_order=[1, 0, 2, 3])
    T2 = fd.define_tensor(shape=[-1, 1, -1, 1], contiguity=[None, True, None, True], dtype=DataType.Double, is_cpu=False, stride_order=[0, 3, 2, 1])
    T3 = fd.ops.cummin(T0, dim=3)
    T4 = fd.ops.pow(T3, 3.0)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(3276, dtype=torch.float32, device='cuda').as_strided((6, 3, 13, 14), (182, 1092, 1, 13)),
    torch.randn(6, dtype=torch.float64, device='cuda').as_strided((6, 1, 1, 1), (1, 1, 6, 6)),
    torch.randn(78, dtype=torch.float64, device='cuda').as_strided((6, 1, 13, 1), (1, 78, 6, 6)),
]
fd.execute(inputs)
