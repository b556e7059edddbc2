import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.ops.cumsum(T1, dim=1)
    T3 = fd.ops.broadcast(T0, is_broadcast_dim=[False, True])
    T4 = fd.ops.set(T0)
    T5 = fd.ops.asinh(T1)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((13,), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((15, 8), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
