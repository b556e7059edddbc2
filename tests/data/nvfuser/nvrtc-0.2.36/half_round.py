import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    tv1 = fd.ops.gt(tv0, 1.0)
    tv2 = fd.ops.where(tv1, tv0, 1.0)
    tv3 = fd.ops.round(tv2)
    tv4 = fd.ops.prod(tv2, dims=[0], keepdim=True)
    fd.add_output(tv4)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((9, 36), dtype=torch.float16, device='cuda:0'),
]
fd.execute(inputs)
