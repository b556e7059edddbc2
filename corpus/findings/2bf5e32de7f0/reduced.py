import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Int32, is_cpu=False)
    tv1 = fd.ops.mul(tv0, 1)
    tv2 = fd.ops.segment_set(tv1)
    tv3 = fd.ops.cast(tv2, dtype=DataType.Double)
    fd.add_output(tv3)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
