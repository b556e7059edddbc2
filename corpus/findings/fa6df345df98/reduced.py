import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.Int32, is_cpu=False)
    tv1 = fd.ops.sum(tv0, dims=[1], keepdim=False)
    tv2 = fd.ops.cummax(tv1, dim=0)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (1,), dtype=torch.int32, device='cuda').as_strided((2, 1), (0, 1)),
]
fd.execute(inputs)
