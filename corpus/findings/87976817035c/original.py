import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[10, 10, 2], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 0, 1])
    T1 = fd.ops.broadcast_in_dim(T0, shape=[10, 10, 2, 5], broadcast_dims=[0, 1, 2])
    T2 = fd.ops.atan2(T0, 0.5)
    T3 = fd.ops.logical_and(T2, T0)
    T4 = fd.ops.where(T3, T3, False)
    T5 = fd.ops.segment_set(T2)
    T6 = fd.ops.cumprod(T2, dim=0)
    T7 = fd.ops.logical_not(T4)
    T8 = fd.ops.bitwise_not(T3)
    T9 = fd.ops.addcmul(T1, T1, T1, 0.5)
    T10 = fd.ops.sum(T8, dims=[0, 2], keepdim=False)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T7)
    fd.add_output(T6)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(200, dtype=torch.float16, device='cuda').as_strided((10, 10, 2), (20, 1, 10)),
]
fd.execute(inputs)
