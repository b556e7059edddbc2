import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.exp(tv0)
    tv2 = fd.ops.segment_set(tv1)
    tv3 = fd.ops.sum(tv2, dims=[0], dtype=DataType.Float)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((256, 512), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
