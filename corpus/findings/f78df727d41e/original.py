import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, -1, -1], contiguity=[None, True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.isinf(T0)
    T2 = fd.ops.cast(T0, dtype=DataType.Half)
    T3 = fd.ops.where(T1, T1, False)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 8, 7), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
