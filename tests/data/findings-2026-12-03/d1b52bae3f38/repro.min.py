import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Double, is_cpu=False)
    tv1 = fd.ops.max(tv0, dims=[0], keepdim=True)
    tv2 = fd.ops.div(tv1, tv0)
    tv3, tv4 = fd.ops.var_mean(tv0, dims=[0], correction=1, keepdim=True)
    tv5 = fd.ops.cummax(tv2, dim=0)
    fd.add_output(tv5)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1,), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
