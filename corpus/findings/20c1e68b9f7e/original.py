import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(sizes=[2, 0, 3], strides=[0, 0, 0], dtype=DataType.Double, static_sizes=False, is_cpu=False)
    c1 = fd.define_scalar(-3.70753, dtype=DataType.Double)
    tv2 = fd.ops.pad(tv0, [0, 0, 1, 1, 1, 0], c1)
    M0 = fd.ops.cast(tv2, dtype=DataType.BFloat16)
    fd.add_output(tv2)
    R0 = fd.ops.cat([M0, M0], dim=0)
    fd.add_output(R0)
    D0 = fd.ops.pad(tv0, [0, 0, 1, 1, 1, 0], c1)
    fd.add_output(D0)
with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [
    torch.randn(0, dtype=torch.float64, device='cuda').as_strided((2, 0, 3), (0, 0, 0)),
]
fd.execute(inputs)
