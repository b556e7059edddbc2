# nondeterministic
# CUDA devices:
#  0: NVIDIA A100-SXM4-80GB
# torch version: 2.7.0a0+git1c7a4a5
# cuda version: 12.8
# nvfuser version: 0.2.25+gitd729c31
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id8(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[None, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0])
    S2 = fd.define_scalar(16, dtype=DataType.Int)
    S3 = fd.define_scalar(0, dtype=DataType.Int)
    S4 = fd.define_scalar(1, dtype=DataType.Int)
    T5 = fd.ops.iota(S2, S3, S4, dtype=DataType.Int)
    T6 = fd.ops.broadcast_in_dim(T5, shape=[16, 1], broadcast_dims=[0])
    T7 = fd.ops.broadcast_in_dim(T5, shape=[1, 16], broadcast_dims=[1])
    T8 = fd.ops.ge(T6, T7)
    T9 = fd.ops.broadcast_in_dim(T8, shape=[4, 16, 16], broadcast_dims=[1, 2])
    S10 = fd.define_scalar(float("-inf"), dtype=DataType.Double)
    T11 = fd.ops.full(shape=[4, 16, 16], fill_value=S10, dtype=DataType.Float)
    T12 = fd.ops.add(T0, T1)
    T13 = fd.ops.where(T9, T12, T11)
    T14 = fd.ops.max(T13, dims=[2], keepdim=False, dtype=DataType.Null)
    T15 = fd.ops.broadcast_in_dim(T14, shape=[4, 16, 1], broadcast_dims=[0, 1])
    T16 = fd.ops.sub(T13, T15)
    T17 = fd.ops.exp(T16)
    T18 = fd.ops.sum(T17, dims=[2], keepdim=False, dtype=DataType.Null)
    T19 = fd.ops.broadcast_in_dim(T18, shape=[4, 16, 1], broadcast_dims=[0, 1])
    T20 = fd.ops.div(T17, T19)
    S21 = fd.define_scalar(0.00000, dtype=DataType.Double)
    S22 = fd.define_scalar(1.00000, dtype=DataType.Double)
    T23 = fd.ops.uniform(S21, S22, shape=[4, 16, 16], dtype=DataType.Float)
    S24 = fd.define_scalar(0.900000, dtype=DataType.Double)
    T25 = fd.ops.lt(T23, S24)
    T26 = fd.ops.cast(T25, dtype=DataType.Float)
    T27 = fd.ops.mul(T20, T26)
    S28 = fd.define_scalar(1.11111, dtype=DataType.Double)
    T29 = fd.ops.mul(T27, S28)
    T30 = fd.ops.triu(T0, 1)
    T31 = fd.ops.rand_like(T0)
    T32 = fd.ops.add(T30, T31)
    fd.add_output(T29)
    fd.add_output(T25)
    fd.add_output(T32)

with FusionDefinition() as fd:
    nvfuser_fusion_id8(fd)

inputs = [
    torch.testing.make_tensor((4, 16, 16), dtype=torch.float32, device='cuda:0'),
    torch.randn(256, dtype=torch.float32, device='cuda:0').as_strided((4, 16, 16), (0, 16, 1)),
]
fd.execute(inputs)
