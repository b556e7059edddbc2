import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[11], contiguity=[True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.ops.sum(T0, dims=[0], keepdim=True)
    T2 = fd.ops.sub(T1, T0)
    T3 = fd.ops.min(T0, dims=[0], keepdim=True)
    T4 = fd.ops.neg(T0)
    fd.add_output(T4)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11,), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
