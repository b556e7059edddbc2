import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, -1, 1], contiguity=[True, True, None], dtype=DataType.Int, is_cpu=False, stride_order=[1, 2, 0])
    tv1 = fd.ops.cummin(tv0, dim=1)
    tv2 = fd.ops.gcd(tv0, tv1)
    fd.add_output(tv2)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (9,), dtype=torch.int64, device='cuda').as_strided((3, 3, 1), (1, 3, 1)),
]
fd.execute(inputs)
