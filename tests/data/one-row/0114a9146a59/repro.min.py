import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int32, is_cpu=False)
    tv1 = fd.ops.slice(tv0, start_indices=[2], end_indices=[3])
    tv2 = fd.ops.broadcast_in_dim(tv1, shape=[1, 3, 1], broadcast_dims=[0])
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3,), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
