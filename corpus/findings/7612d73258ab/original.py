import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[0, 1])
    T1 = fd.ops.where(T0, T0, True)
    T2 = fd.ops.sum(T0, dims=[0], keepdim=False)
    T3 = fd.ops.min(T1, dims=[0], keepdim=False)
    fd.add_output(T3)
    fd.add_output(T2)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 2, (14,), dtype=torch.bool, device='cuda').as_strided((2, 7), (1, 2)),
]
fd.execute(inputs)
