import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, None], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 0])
    tv1 = fd.ops.cat([tv0, tv0], dim=0)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (1,), dtype=torch.int32, device='cuda').as_strided((1, 2), (1, 0)),
]
fd.execute(inputs)
