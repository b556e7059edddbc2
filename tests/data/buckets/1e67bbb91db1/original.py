import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[6, 1, -1, 1], contiguity=[True, None, True, None], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[6, 1, -1, 1], contiguity=[True, None, True, None], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.cumsum(T1, dim=0)
    T3 = fd.ops.cast(T2, dtype=DataType.Double)
    T4 = fd.ops.reshape(T2, new_shape=[39, 2])
    fd.add_output(T4)
    fd.add_output(T3)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((6, 1, 13, 1), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((6, 1, 13, 1), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
