import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[5, -1, -1], contiguity=[True, True, True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 3, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.cumsum(T0, dim=0)
    T3 = fd.ops.neg(T0)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((5, 3, 14), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((5, 3, 14), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
