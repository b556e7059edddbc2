import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, 3, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1, tv2, tv3 = fd.ops.welford(tv0, dims=[1, 2])
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 3, 3), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
