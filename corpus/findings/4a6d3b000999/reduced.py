import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[8, -1, -1, 3], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.slice(tv0, start_indices=[7, 3, 2, 4], end_indices=[8, 7, 4, 5])
    tv2 = fd.ops.prod(tv1, dims=[0, 1, 2], keepdim=True)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 6, 3, 3), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
