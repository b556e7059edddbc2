import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[False, False, False, False], dtype=DataType.Float, is_cpu=False, stride_order=[3, 2, 1, 0])
    c1 = fd.define_scalar(0.0, dtype=DataType.Double)
    tv2 = fd.ops.logical_and(tv0, c1)
    c3 = fd.define_scalar(0.0, dtype=DataType.Double)
    tv4 = fd.ops.where(tv2, tv0, c3)
    fd.add_output(tv4)
    fd.add_output(tv4, tv0)
    fd.add_output(tv4)
    fd.add_output(tv0)
with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [
    torch.randn(44, dtype=torch.float32, device='cuda').as_strided((1, 2, 3, 4), (48, 24, 8, 1)),
]
fd.execute(inputs)
