import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.ops.prod(tv0, dims=[0], keepdim=True)
    tv3 = fd.ops.max(tv0, dims=[0], keepdim=True)
    tv4 = fd.ops.remainder(tv3, tv0)
    tv5 = fd.ops.ge(tv3, tv4)
    fd.add_output(tv1)
    fd.add_output(tv5)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3,), dtype=torch.float16, device='cuda'),torch.testing.make_tensor((3,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
