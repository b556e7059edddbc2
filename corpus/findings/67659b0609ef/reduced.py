import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[9, 8], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.reshape(tv0, new_shape=[2, 2, 18, 1])
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((9, 8), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
