import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, 3, -1, 3], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1, tv2, tv3 = fd.ops.welford(tv0, dims=[0, 1])
    tv4 = fd.ops.pad(tv3, [0, 0, 2, 0])
    fd.add_output(tv4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 3, 2, 3), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
