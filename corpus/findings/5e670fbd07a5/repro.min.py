import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[13, 3, 5, 5], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 3, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    T2 = fd.ops.cumsum(T0, dim=2)
    T3 = fd.ops.cumsum(T0, dim=2)
    T4 = fd.ops.ge(T2, T1)
    fd.add_output(T3)
    fd.add_output(T4)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(975, dtype=torch.bfloat16, device='cuda').as_strided((13, 3, 5, 5), (15, 5, 195, 1)),torch.testing.make_tensor((13, 3, 5, 5), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
