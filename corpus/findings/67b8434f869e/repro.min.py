import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Double, is_cpu=False)
    T1 = fd.ops.cast(T0, dtype=DataType.BFloat16)
    S2 = fd.define_scalar(1.0, dtype=DataType.Double)
    T3 = fd.ops.addcmul(T1, T0, T1, S2)
    fd.add_output(T3)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
