import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.define_tensor(shape=[11, 1, -1], contiguity=[True, None, False], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.ops.where(T0, T0, True)
    T3 = fd.ops.logical_not(T0)
    T4 = fd.ops.where(T2, T2, True)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11, 8, 4), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((11, 1, 4), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
