import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, 3, 2], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv2 = fd.ops.cat([tv0, tv1], dim=1)
    tv3 = fd.ops.lerp(tv2, 2.0, 1.0)
    tv4 = fd.ops.cumprod(tv3, dim=0)
    tv5 = fd.ops.logical_and(tv4, tv3)
    fd.add_output(tv5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 3, 2), dtype=torch.bfloat16, device='cuda'),torch.testing.make_tensor((2, 3, 2), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
