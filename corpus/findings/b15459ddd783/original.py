import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 15, 15], contiguity=[True, False, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0, 2])
    T1 = fd.ops.max(T0, dims=[0, 2], keepdim=False)
    T2 = fd.ops.ne(T0, 2.0)
    T3 = fd.ops.broadcast_in_dim(T0, shape=[3, 15, 15], broadcast_dims=[0, 1, 2])
    T4 = fd.ops.log2(T0)
    T5 = fd.ops.cast(T4, dtype=DataType.Bool)
    T6 = fd.ops.set(T1)
    T7 = fd.ops.cast(T5, dtype=DataType.Bool)
    T8 = fd.ops.broadcast_in_dim(T1, shape=[15], broadcast_dims=[0])
    T9 = fd.ops.sqrt(T4)
    T10 = fd.ops.cast(T9, dtype=DataType.Int)
    T11 = fd.ops.bitwise_xor(T5, True)
    T12 = fd.ops.pad(T9, [1, 0, 2, 0])
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(675, dtype=torch.bfloat16, device='cuda').as_strided((3, 15, 15), (15, 1, 45)),
]
fd.execute(inputs)
