# expect: script no-execute
# The tail of the repro (the fd.execute call) was lost: nothing runs the fusion.
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.exp(tv0)
    tv2 = fd.ops.sum(tv1, dims=[1], keepdim=False, dtype=DataType.Float)
    fd.add_output(tv2)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 32), dtype=torch.float32, device='cuda:0'),
]
