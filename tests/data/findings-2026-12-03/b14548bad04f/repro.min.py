import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, False], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0])
    tv1 = fd.ops.max(tv0, dims=[0, 1], keepdim=True)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((6, 4), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
