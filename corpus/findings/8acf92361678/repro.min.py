import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[11, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv2 = fd.ops.log(tv0)
    tv3 = fd.ops.cat([tv1, tv2], dim=0)
    tv4 = fd.ops.cumsum(tv3, dim=0)
    fd.add_output(tv4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11, 6), dtype=torch.bfloat16, device='cuda'),torch.testing.make_tensor((11, 6), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
