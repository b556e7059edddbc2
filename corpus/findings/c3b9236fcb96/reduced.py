import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[15, -1, 6], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.reshape(tv0, new_shape=[30, 42])
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15, 14, 6), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
