import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[5, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.cumsum(T0, dim=0)
    S2 = fd.define_scalar(1.0, dtype=DataType.Double)
    T3 = fd.ops.pad(T1, [1, 0], S2)
    T4 = fd.ops.prod(T3, dims=[0, 2], keepdim=False)
    fd.add_output(T4)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((5, 1, 8, 6), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
