import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0, 2, 1])
    T1 = fd.define_tensor(shape=[1, 1, 1], contiguity=[None, None, None], dtype=DataType.Int, is_cpu=False, stride_order=[1, 0, 2])
    T2 = fd.ops.expand(T1, shape=[4, 3, 6])
    T3 = fd.ops.neg(T2)
    T4 = fd.ops.cumprod(T1, dim=2)
    T5 = fd.ops.broadcast_in_dim(T1, shape=[1, 1, 1, 1], broadcast_dims=[0, 1, 2])
    T6 = fd.ops.segment_set(T3)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(1287, dtype=torch.bfloat16, device='cuda').as_strided((9, 11, 13), (1, 117, 9)),
    torch.testing.make_tensor((1, 1, 1), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
