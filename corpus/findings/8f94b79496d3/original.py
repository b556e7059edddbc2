# CUDA devices:
#  0: NVIDIA H100 80GB HBM3
# torch version: 2.4.0a0+git8d5fd5d
# cuda version: 12.4
# nvfuser version: 0.2.8+git0429a13
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id7(fd : FusionDefinition) -> None :
    S0 = fd.define_scalar(None, dtype=DataType.Double)
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[False, False], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T4 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T5 = fd.ops.cast(T1, dtype=DataType.Float)
    T6 = fd.ops.mul(T5, S0)
    T7 = fd.ops.cast(T2, dtype=DataType.Float)
    M0 = fd.ops.cast(T7, dtype=DataType.Float)
    T7 = fd.ops.segment_set(T7)
    T8 = fd.ops.cast(T3, dtype=DataType.Float)
    S9 = fd.define_scalar(64, dtype=DataType.Int)
    S10 = fd.define_scalar(1024, dtype=DataType.Int)
    T12 = fd.ops.broadcast_in_dim(T4, shape=[S9, S10], broadcast_dims=[0, 1])
    T13 = fd.ops.mul(T6, T8)
    T14 = fd.ops.mul(T13, M0)
    T15 = fd.ops.sum(T14, dims=[1], keepdim=False, dtype=DataType.Null)
    S16 = fd.define_scalar(1024.00, dtype=DataType.Double)
    T17 = fd.ops.div(T15, S16)
    S18 = fd.define_scalar(64, dtype=DataType.Int)
    S19 = fd.define_scalar(1, dtype=DataType.Int)
    T21 = fd.ops.broadcast_in_dim(T17, shape=[S18, S19], broadcast_dims=[0])
    S22 = fd.define_scalar(3.00000, dtype=DataType.Double)
    T23 = fd.ops.pow(T4, S22)
    T24 = fd.ops.mul(T21, T23)
    S25 = fd.define_scalar(64, dtype=DataType.Int)
    S26 = fd.define_scalar(1024, dtype=DataType.Int)
    T28 = fd.ops.broadcast_in_dim(T24, shape=[S25, S26], broadcast_dims=[0, 1])
    T29 = fd.ops.mul(M0, T28)
    T30 = fd.ops.mul(T13, T12)
    T31 = fd.ops.sub(T30, T29)
    T32 = fd.ops.cast(T31, dtype=DataType.BFloat16)
    T33 = fd.ops.mul(T6, M0)
    T34 = fd.ops.mul(T33, T12)
    T35 = fd.ops.sum(T34, dims=[0], keepdim=False, dtype=DataType.Null)
    T36 = fd.ops.cast(T35, dtype=DataType.BFloat16)
    fd.add_output(T32)
    fd.add_output(T36)

with FusionDefinition() as fd:
    nvfuser_fusion_id7(fd)

inputs = [
    0.125,
    torch.randn((65536,), dtype=torch.bfloat16, device='cuda:0').as_strided((64, 1024), (1024, 1)),
    torch.randn(130048, dtype=torch.bfloat16, device='cuda:0').as_strided((64, 1024), (2048, 1)),
    torch.randn((1024,), dtype=torch.bfloat16, device='cuda:0').as_strided((64, 1024), (0, 1)),
    torch.randn((64,), dtype=torch.float32, device='cuda:0').as_strided((64, 1), (1, 1)),
]
fd.execute(inputs)
