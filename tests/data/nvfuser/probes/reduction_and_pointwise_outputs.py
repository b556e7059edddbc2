import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.sum(tv0, dims=[0, 1], dtype=DataType.Float)
    tv2 = fd.ops.sum(tv0, dims=[2], dtype=DataType.Float)
    tv3 = fd.ops.neg(tv0)
    tv4 = fd.ops.permute(tv3, dims=[2, 0, 1])
    fd.add_output(tv1)
    fd.add_output(tv2)
    fd.add_output(tv4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((16, 32, 1024), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
