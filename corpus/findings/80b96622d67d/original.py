import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[None, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0, 2])
    tv1, tv2 = fd.ops.var_mean(tv0, [0, 1, 2], 0)
    fd.add_output(tv1)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [
    torch.randn(4, dtype=torch.float32, device='cuda').as_strided((2, 2, 2), (2, 1, 0)),
]
fd.execute(inputs)
