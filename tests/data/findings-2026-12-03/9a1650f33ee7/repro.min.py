import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, -1, 3], contiguity=[True, True, True], dtype=DataType.Bool, is_cpu=False)
    tv1 = fd.ops.stride_order(tv0, stride_order=[2, 1, 0])
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 2, 3), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
