import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[6], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.ops.cumsum(T0, dim=0)
    T2 = fd.ops.cast(T1, dtype=DataType.Double)
    fd.add_output(T2)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((6,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
