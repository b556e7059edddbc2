import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[4], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.ops.bitwise_right_shift(T0, T0)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4,), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
