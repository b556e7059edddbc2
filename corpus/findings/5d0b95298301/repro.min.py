import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Int32, is_cpu=False)
    S1 = fd.define_scalar(-1, dtype=DataType.Int)
    T2 = fd.ops.bitwise_left_shift(T0, S1)
    fd.add_output(T2)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
