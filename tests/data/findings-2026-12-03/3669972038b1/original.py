import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.cumsum(T0, dim=0)
    T2 = fd.ops.cummax(T1, dim=0)
    T3 = fd.ops.pow(T2, 0.0)
    T4 = fd.ops.atan2(T2, T0)
    T5 = fd.ops.stride_order(T4, stride_order=[1, 0])
    T6 = fd.ops.lerp(T1, T2, 0.25)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T3)
    fd.add_output(T2)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15, 4), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
