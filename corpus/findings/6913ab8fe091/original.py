import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[3, -1, -1], contiguity=[True, True, True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.define_tensor(shape=[15, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[1, 7, 7], contiguity=[True, None, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0, 2])
    T3 = fd.ops.le(T0, 1)
    T4 = fd.ops.bitwise_xor(T3, True)
    T5 = fd.ops.segment_set(T0)
    T6 = fd.ops.cast(T5, dtype=DataType.BFloat16)
    T7 = fd.ops.set(T3)
    T8 = fd.ops.broadcast(T7, is_broadcast_dim=[False, False, False, True])
    fd.add_output(T8)
    fd.add_output(T6)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 13, 16), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((15, 2), dtype=torch.float16, device='cuda'),
    torch.randn(49, dtype=torch.bfloat16, device='cuda').as_strided((1, 7, 7), (7, 1, 7)),
]
fd.execute(inputs)
