import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[11, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.ops.cummax(T0, dim=0)
    T2 = fd.ops.gt(T1, 1.0)
    T3 = fd.ops.where(T2, T1, T0)
    T4 = fd.ops.cat([T3, T3], dim=1)
    fd.add_output(T4)
    fd.add_output(T1)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11, 2), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
