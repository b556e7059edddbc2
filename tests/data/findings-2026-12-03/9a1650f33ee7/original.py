import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[3, -1, 12], contiguity=[True, True, True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.ops.sum(T0, dims=[0, 1, 2], keepdim=True)
    T2 = fd.ops.reshape(T1, new_shape=[1])
    T3 = fd.ops.set(T0)
    T4 = fd.ops.cummax(T2, dim=0)
    T5 = fd.ops.minimum(T4, T2)
    T6 = fd.ops.stride_order(T0, stride_order=[2, 1, 0])
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T3)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 4, 12), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
