import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[12, -1, 3], contiguity=[True, True, True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.ops.sum(T0, dims=[0, 1], keepdim=True)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12, 16, 3), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
