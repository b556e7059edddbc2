import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 3, 8, 13], contiguity=[True, True, True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[2, 1, 3, 0])
    T1 = fd.ops.where(T0, T0, False)
    T2 = fd.ops.where(T0, T0, False)
    T3 = fd.ops.bitwise_not(T1)
    T4 = fd.ops.logical_not(T2)
    T5 = fd.ops.broadcast_in_dim(T0, shape=[6, 3, 8, 13], broadcast_dims=[0, 1, 2, 3])
    T6 = fd.ops.set(T5)
    T7 = fd.ops.broadcast(T4, is_broadcast_dim=[False, False, False, False])
    T8 = fd.ops.bitwise_not(T6)
    T9 = fd.ops.where(T6, T6, T4)
    T10 = fd.ops.bitwise_and(T5, T2)
    T11 = fd.ops.set(T6)
    T12 = fd.ops.reshape(T2, new_shape=[13, 4, 9, 4])
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 2, (1872,), dtype=torch.bool, device='cuda').as_strided((6, 3, 8, 13), (39, 13, 234, 1)),
]
fd.execute(inputs)
