import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.BFloat16, is_cpu=False)
    tv2 = fd.ops.cumsum(tv0, dim=0)
    tv3 = fd.ops.pow(tv1, tv1)
    fd.add_output(tv3)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((18,), dtype=torch.bfloat16, device='cuda'),torch.testing.make_tensor((), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
