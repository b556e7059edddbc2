import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[11, 6, 3, 14], contiguity=[True, True, False, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 3, 0, 1])
    T1 = fd.ops.cummin(T0, dim=2)
    T2 = fd.ops.sin(T0)
    T3 = fd.ops.cummin(T1, dim=1)
    T4 = fd.ops.set(T0)
    fd.add_output(T4)
    fd.add_output(T3)
    fd.add_output(T2)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(2772, dtype=torch.bfloat16, device='cuda').as_strided((11, 6, 3, 14), (42, 462, 1, 3)),
]
fd.execute(inputs)
