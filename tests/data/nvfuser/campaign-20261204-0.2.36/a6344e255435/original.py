import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 11], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[0, 2, 1])
    T1 = fd.ops.cummin(T0, dim=1)
    T2 = fd.ops.asinh(T1)
    fd.add_output(T2)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(165, dtype=torch.float16, device='cuda').as_strided((3, 5, 11), (1, 33, 3)),
]
fd.execute(inputs)
