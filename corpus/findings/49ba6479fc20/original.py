import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[4, -1, -1, 7], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 3, 0, 1])
    T1 = fd.define_tensor(shape=[3, 15, 6], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[0, 1, 2])
    T2 = fd.ops.logical_or(T1, 3.0)
    T3 = fd.ops.prod(T1, dims=[1], keepdim=False)
    T4 = fd.ops.broadcast_in_dim(T2, shape=[3, 15, 6], broadcast_dims=[0, 1, 2])
    T5 = fd.ops.broadcast(T2, is_broadcast_dim=[False, False, False, True])
    T6 = fd.ops.logical_not(T2)
    T7 = fd.ops.bitwise_xor(T5, True)
    T8 = fd.ops.bitwise_xor(T7, False)
    T9 = fd.ops.pad(T6, [1, 1, 0, 1, 2, 0])
    T10 = fd.ops.set(T7)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(1400, dtype=torch.bfloat16, device='cuda').as_strided((4, 10, 5, 7), (35, 140, 1, 5)),
    torch.randn(270, dtype=torch.float16, device='cuda').as_strided((3, 15, 6), (1, 3, 45)),
]
fd.execute(inputs)
