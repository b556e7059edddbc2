import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[4, 3], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.addcmul(tv0, tv0, tv0, 0.5)
    tv2 = fd.ops.cosh(tv1)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 3), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
