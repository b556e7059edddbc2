import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[13], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.ops.cumsum(tv0, dim=0)
    tv2 = fd.ops.cast(tv1, dtype=DataType.Int32)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((13,), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
