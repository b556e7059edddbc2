import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.Half, is_cpu=False)
    tv1 = fd.ops.triu(tv0, -1)
    M0 = fd.ops.cast(tv1, dtype=DataType.BFloat16)
    fd.add_output(tv1)
    D0 = fd.ops.triu(tv0, -1)
    fd.add_output(D0)
with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [
    torch.randn(16, dtype=torch.float16, device='cuda').as_strided((4, 16), (0, 1)),
]
fd.execute(inputs)
