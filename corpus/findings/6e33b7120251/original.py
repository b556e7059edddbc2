import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[7, 15, 1, 2], contiguity=[True, True, True, None], dtype=DataType.Half, is_cpu=False, stride_order=[2, 1, 0, 3])
    T1 = fd.ops.cummax(T0, dim=3)
    T2 = fd.ops.cummax(T0, dim=2)
    T3 = fd.ops.set(T1)
    T4 = fd.ops.atan(T3)
    fd.add_output(T4)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(210, dtype=torch.float16, device='cuda').as_strided((7, 15, 1, 2), (15, 1, 1, 105)),
]
fd.execute(inputs)
