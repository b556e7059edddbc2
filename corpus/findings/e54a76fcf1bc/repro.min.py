import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[3, -1, 2], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.sum(T0, dims=[0, 1, 2], keepdim=True)
    T3 = fd.ops.cumsum(T1, dim=0)
    T4 = fd.ops.cast(T2, dtype=DataType.Double)
    fd.add_output(T4)
    fd.add_output(T3)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 3, 2), dtype=torch.float16, device='cuda'),torch.testing.make_tensor((3, 3, 2), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
