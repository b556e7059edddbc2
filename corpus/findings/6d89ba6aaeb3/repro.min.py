import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[16, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.ops.max(tv0, dims=[1], keepdim=True)
    tv2 = fd.ops.cumsum(tv1, dim=0)
    tv3 = fd.ops.cast(tv2, dtype=DataType.Int32)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((16, 1), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
