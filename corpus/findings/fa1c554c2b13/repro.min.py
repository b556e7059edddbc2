import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[4, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.reciprocal(T0)
    T2 = fd.ops.cumsum(T1, dim=1)
    fd.add_output(T2)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 3, 2, 4), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
