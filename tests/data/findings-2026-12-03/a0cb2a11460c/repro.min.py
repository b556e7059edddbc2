import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[6], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Double, is_cpu=False)
    T2 = fd.ops.atan2(T0, 1.0)
    T3 = fd.ops.cumsum(T2, dim=0)
    T4 = fd.ops.cast(T0, dtype=DataType.Bool)
    fd.add_output(T4)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((6,), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((6,), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
