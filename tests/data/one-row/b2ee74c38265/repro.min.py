import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, None], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.pad(tv0, [0, 0, 1, 1, 0, 1])
    tv2 = fd.ops.reshape(tv1, new_shape=[1, 6, 17, 3])
    tv3 = fd.ops.prod(tv2, dims=[1, 2], keepdim=False)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(75, dtype=torch.float32, device='cuda').as_strided((5, 15, 3), (15, 1, 0)),
]
fd.execute(inputs)
