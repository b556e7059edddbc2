import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id4(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 1, 0])
    M0 = fd.ops.segment_set(T0)
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False, stride_order=[0])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False, stride_order=[0])
    S3 = fd.ops.size(M0, dim=0)
    S4 = fd.ops.size(M0, dim=1)
    S5 = fd.ops.size(M0, dim=2)
    T6 = fd.ops.cast(M0, dtype=DataType.Float)
    T7, T8 = fd.ops.var_mean(T6, dims=[2], correction=0, keepdim=False)
    S9 = fd.define_scalar(1, dtype=DataType.Int)
    T11 = fd.ops.broadcast_in_dim(T7, shape=[S3, S4, S9], broadcast_dims=[0, 1])
    T12 = fd.ops.broadcast_in_dim(T8, shape=[S3, S4, S9], broadcast_dims=[0, 1])
    S13 = fd.define_scalar(1.00000e-05, dtype=DataType.Double)
    T14 = fd.ops.add(T11, S13)
    T15 = fd.ops.rsqrt(T14)
    T17 = fd.ops.broadcast_in_dim(T12, shape=[S3, S4, S5], broadcast_dims=[0, 1, 2])
    T18 = fd.ops.sub(T6, T17)
    T19 = fd.ops.broadcast_in_dim(T15, shape=[S3, S4, S5], broadcast_dims=[0, 1, 2])
    T20 = fd.ops.mul(T18, T19)
    T21 = fd.ops.broadcast_in_dim(T1, shape=[S3, S4, S5], broadcast_dims=[2])
    T22 = fd.ops.cast(T21, dtype=DataType.Float)
    T23 = fd.ops.mul(T20, T22)
    T24 = fd.ops.broadcast_in_dim(T2, shape=[S3, S4, S5], broadcast_dims=[2])
    T25 = fd.ops.cast(T24, dtype=DataType.Float)
    T26 = fd.ops.add(T23, T25)
    T27 = fd.ops.cast(T26, dtype=DataType.Half)
    fd.add_output(T27)
    fd.add_output(T12)
    fd.add_output(T15)
    fd.add_output(T21, M0)
    fd.add_output(M0, T0)

with FusionDefinition() as fd:
    nvfuser_fusion_id4(fd)

inputs = [
    torch.randn((131072,), dtype=torch.float16, device='cuda:0').as_strided((4, 128, 256), (32768, 256, 1)),
    torch.randn((256,), dtype=torch.float16, device='cuda:0').as_strided((256,), (1,)),
    torch.randn((256,), dtype=torch.float16, device='cuda:0').as_strided((256,), (1,)),
]
fd.execute(inputs)
