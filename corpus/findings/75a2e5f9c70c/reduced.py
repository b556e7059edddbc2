import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.cat([tv0, tv0], dim=1)
    tv2, tv3, tv4 = fd.ops.welford(tv1, dims=[0])
    fd.add_output(tv4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
