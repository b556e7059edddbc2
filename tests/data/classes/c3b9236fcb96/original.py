import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[15, -1, 6], contiguity=[True, True, True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.ops.reshape(T0, new_shape=[30, 42])
    T2 = fd.ops.addcmul(T0, T0, T0, 0.5)
    fd.add_output(T2)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15, 14, 6), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
