import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, 3], contiguity=[False, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 2, 0])
    tv1 = fd.ops.cummin(tv0, dim=0)
    tv2 = fd.ops.clamp(tv1, -1.0, 1.0)
    fd.add_output(tv2)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(18, dtype=torch.bfloat16, device='cuda').as_strided((3, 2, 3), (3, 9, 1)),
]
fd.execute(inputs)
