import torch
from nvfuser_direct import FusionDefinition, DataType

def check_nostrides(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.slice(tv0, start_indices=[2, 2], end_indices=[4, 4])
    fd.add_output(tv1)
    R0 = fd.ops.cat([tv1, tv1], dim=1)
    fd.add_output(R0)
with FusionDefinition() as fd:
    check_nostrides(fd)

inputs = [
    torch.randn(10, dtype=torch.float32, device='cuda').as_strided((10, 10), (1, 0)),
]
fd.execute(inputs)
