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
    T9 = fd.ops.broadcast_in_dim(T5, shape=[16, 1], broadcast_dims=[0])
    T13 = fd.ops.broadcast_in_dim(T5, shape=[1, 16], broadcast_dims=[1])
    T14 = fd.ops.ge(T9, T13)
    T19 = fd.ops.broadcast_in_dim(T14, shape=[4, 16, 16], broadcast_dims=[1, 2])
    S20 = fd.define_scalar(float("-inf"), dtype=DataType.Double)
    T25 = fd.ops.full(shape=[4, 16, 16], fill_value=S20, dtype=DataType.Float)
    T26 = fd.ops.add(T0, T1)
    T27 = fd.ops.where(T19, T26, T25)
    T28 = fd.ops.max(T27, dims=[2], keepdim=False, dtype=DataType.Null)
    T33 = fd.ops.broadcast_in_dim(T28, shape=[4, 16, 1], broadcast_dims=[0, 1])
    T34 = fd.ops.sub(T27, T33)
    T35 = fd.ops.exp(T34)
    T36 = fd.ops.sum(T35, dims=[2], keepdim=False, dtype=DataType.Null)
    T41 = fd.ops.broadcast_in_dim(T36, shape=[4, 16, 1], broadcast_dims=[0, 1])
    T42 = fd.ops.div(T35, T41)
    S43 = fd.define_scalar(0.00000, dtype=DataType.Double)
    S44 = fd.define_scalar(1.00000, dtype=DataType.Double)
    T49 = fd.ops.uniform(S43, S44, shape=[4, 16, 16], dtype=DataType.Float)
    S50 = fd.define_scalar(0.900000, dtype=DataType.Double)
    T51 = fd.ops.lt(T49, S50)
    T52 = fd.ops.cast(T51, dtype=DataType.Float)
    T53 = fd.ops.mul(T42, T52)
    S54 = fd.define_scalar(1.11111, dtype=DataType.Double)
    T55 = fd.ops.mul(T53, S54)
    T56 = fd.ops.triu(T0, 1)
    T58 = fd.ops.rand_like(T0)
    T59 = fd.ops.add(T56, T58)
    fd.add_output(T55)
    fd.add_output(T51)
    fd.add_output(T59)

with FusionDefinition() as fd:
    nvfuser_fusion_id8(fd)

inputs = [
    torch.testing.make_tensor((4, 16, 16), dtype=torch.float32, device='cuda:0'),
    torch.randn(256, dtype=torch.float32, device='cuda:0').as_strided((4, 16, 16), (0, 16, 1)),
]
fd.execute(inputs)
