import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[7, 16, 5, -1], contiguity=[True, True, True, False], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.ops.bitwise_xor(T0, True)
    T2 = fd.ops.stride_order(T0, stride_order=[3, 0, 1, 2])
    T3 = fd.ops.set(T0)
    T4 = fd.ops.sum(T3, dims=[0, 1], keepdim=True)
    T5 = fd.ops.clamp(T4, -1, 2)
    T6 = fd.ops.logical_not(T0)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T2)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((7, 16, 5, 9), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
