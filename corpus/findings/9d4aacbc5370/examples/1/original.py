# CUDA devices:
#  0: NVIDIA A100-SXM4-80GB
# torch version: 2.7.0a0+git1c7a4a5
# cuda version: 12.8
# nvfuser version: 0.2.25+gitd729c31
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id5(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[0, 1])
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T2 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    S3 = fd.define_scalar(None, dtype=DataType.Double)
    T4, T5 = fd.ops.var_mean(T0, dims=[0], correction=0, keepdim=False)
    S6 = fd.define_scalar(1.00000e-05, dtype=DataType.Double)
    T7 = fd.ops.add(T4, S6)
    T8 = fd.ops.rsqrt(T7)
    T12 = fd.ops.broadcast_in_dim(T5, shape=[32, 64], broadcast_dims=[1])
    T13 = fd.ops.sub(T0, T12)
    T17 = fd.ops.broadcast_in_dim(T8, shape=[32, 64], broadcast_dims=[1])
    T18 = fd.ops.mul(T13, T17)
    S19 = fd.define_scalar(3.00000, dtype=DataType.Double)
    T20 = fd.ops.minimum(T18, S19)
    S21 = fd.define_scalar(-3.00000, dtype=DataType.Double)
    T22 = fd.ops.maximum(T20, S21)
    S23 = fd.define_scalar(0.00000, dtype=DataType.Double)
    T24 = fd.ops.gt(T22, S23)
    S25 = fd.define_scalar(0.0100000, dtype=DataType.Double)
    T26 = fd.ops.mul(T22, S25)
    T27 = fd.ops.where(T24, T22, T26)
    T28 = fd.ops.lerp(T1, T5, S3)
    T29 = fd.ops.var(T0, dims=[0], correction=1, keepdim=False)
    T30 = fd.ops.lerp(T2, T29, S3)
    fd.add_output(T27)
    fd.add_output(T28, T1)
    fd.add_output(T30, T2)
    fd.add_output(T27, T0)

with FusionDefinition() as fd:
    nvfuser_fusion_id5(fd)

inputs = [
    torch.randn(2048, dtype=torch.float32, device='cuda:0').as_strided((32, 64), (1, 32)),
    torch.testing.make_tensor((64,), dtype=torch.float32, device='cuda:0'),
    torch.randn(127, dtype=torch.float32, device='cuda:0').as_strided((64,), (2,)),
    0.1,
]
fd.execute(inputs)
