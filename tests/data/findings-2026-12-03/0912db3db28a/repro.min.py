import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, 3, 3, 3], contiguity=[True, True, False, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 3, 0, 1])
    tv1 = fd.ops.cummin(tv0, dim=2)
    tv2 = fd.ops.cummin(tv1, dim=1)
    fd.add_output(tv2)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(54, dtype=torch.bfloat16, device='cuda').as_strided((2, 3, 3, 3), (9, 18, 1, 3)),
]
fd.execute(inputs)
