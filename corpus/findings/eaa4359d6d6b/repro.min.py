import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    tv1 = fd.ops.cumsum(tv0, dim=0)
    tv2 = fd.ops.lerp(tv1, tv0, 0.0)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
