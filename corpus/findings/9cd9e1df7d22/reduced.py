import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.max(tv0, dims=[0], keepdim=True)
    tv2 = fd.ops.min(tv0, dims=[0], keepdim=True)
    fd.add_output(tv2)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((14,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
