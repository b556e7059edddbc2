import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=False, stride_order=[])
    tv1 = fd.ops.cast(tv0, dtype=DataType.Half)
    tv2 = fd.ops.sigmoid(tv1)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
