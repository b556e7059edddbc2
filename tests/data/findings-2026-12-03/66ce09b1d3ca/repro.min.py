import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, 2], contiguity=[True, True, True], dtype=DataType.Int32, is_cpu=False)
    tv1 = fd.ops.permute(tv0, dims=[2, 0, 1])
    tv2 = fd.ops.cumprod(tv1, dim=2)
    tv3 = fd.ops.cast(tv2, dtype=DataType.Double)
    fd.add_output(tv3)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 2, 2), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
