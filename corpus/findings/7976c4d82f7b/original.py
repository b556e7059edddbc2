import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1], contiguity=[None], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[16, -1], contiguity=[True, True], dtype=DataType.Double, is_cpu=False)
    T2 = fd.define_tensor(shape=[1], contiguity=[None], dtype=DataType.Half, is_cpu=False)
    T3 = fd.ops.neg(T0)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1,), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((16, 8), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((1,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
