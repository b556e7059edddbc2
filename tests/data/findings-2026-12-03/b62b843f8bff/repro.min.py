import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2], contiguity=[True], dtype=DataType.Double, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.ops.sum(tv0, dims=[0], keepdim=True)
    tv3 = fd.ops.sub(tv2, tv0)
    tv4 = fd.ops.min(tv0, dims=[0], keepdim=True)
    fd.add_output(tv1)
    fd.add_output(tv4)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2,), dtype=torch.float64, device='cuda'),torch.testing.make_tensor((2,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
