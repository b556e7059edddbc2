import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[None, None, None], dtype=DataType.Double, is_cpu=False, stride_order=[2, 0, 1])
    c1 = fd.define_scalar(-3.70753, dtype=DataType.Double)
    tv2 = fd.ops.pad(tv0, [0, 0, 1, 1, 1, 0], c1)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [
    torch.randn(0, dtype=torch.float64, device='cuda').as_strided((2, 0, 3), (0, 0, 0)),
]
fd.execute(inputs)
