# CUDA devices:
#  0: NVIDIA H100 80GB HBM3
# torch version: 2.6.0a0+gitdf5bbc0
# cuda version: 12.6
# nvfuser version: 0.2.23+git97544c3
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id7(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T4 = fd.ops.cast(T0, dtype=DataType.Float)
    T5 = fd.ops.cast(T1, dtype=DataType.Float)
    T6 = fd.ops.add(T4, T5)
    T7 = fd.ops.cast(T6, dtype=DataType.BFloat16)
    T8 = fd.ops.cast(T7, dtype=DataType.Float)
    T9 = fd.ops.mul(T8, T8)
    T10 = fd.ops.sum(T9, dims=[2], keepdim=False, dtype=DataType.Null)
    T15 = fd.ops.broadcast_in_dim(T10, shape=[2, 16, 1], broadcast_dims=[0, 1])
    S16 = fd.define_scalar(64.0000, dtype=DataType.Double)
    S17 = fd.ops.reciprocal(S16)
    T18 = fd.ops.mul(T15, S17)
    S19 = fd.define_scalar(1.00000e-06, dtype=DataType.Double)
    T20 = fd.ops.add(T18, S19)
    T21 = fd.ops.rsqrt(T20)
    T26 = fd.ops.broadcast_in_dim(T21, shape=[2, 16, 64], broadcast_dims=[0, 1, 2])
    T27 = fd.ops.mul(T8, T26)
    T28 = fd.ops.cast(T2, dtype=DataType.Float)
    T33 = fd.ops.broadcast_in_dim(T28, shape=[2, 16, 64], broadcast_dims=[2])
    T34 = fd.ops.mul(T27, T33)
    T35 = fd.ops.cast(T34, dtype=DataType.BFloat16)
    T36 = fd.ops.cast(T35, dtype=DataType.Float)
    S37 = fd.define_scalar(0.125000, dtype=DataType.Double)
    T38 = fd.ops.mul(T36, S37)
    S39 = fd.define_scalar(30.0000, dtype=DataType.Double)
    T40 = fd.ops.div(T38, S39)
    T41 = fd.ops.tanh(T40)
    S42 = fd.define_scalar(30.0000, dtype=DataType.Double)
    T43 = fd.ops.mul(T41, S42)
    T44 = fd.ops.cast(T3, dtype=DataType.Float)
    T49 = fd.ops.broadcast_in_dim(T44, shape=[2, 16, 64], broadcast_dims=[1, 2])
    T50 = fd.ops.add(T43, T49)
    T51 = fd.ops.max(T50, dims=[2], keepdim=False, dtype=DataType.Null)
    T56 = fd.ops.broadcast_in_dim(T51, shape=[2, 16, 1], broadcast_dims=[0, 1])
    T61 = fd.ops.broadcast_in_dim(T56, shape=[2, 16, 64], broadcast_dims=[0, 1, 2])
    T62 = fd.ops.sub(T50, T61)
    T63 = fd.ops.exp(T62)
    T64 = fd.ops.sum(T63, dims=[2], keepdim=False, dtype=DataType.Null)
    T69 = fd.ops.broadcast_in_dim(T64, shape=[2, 16, 1], broadcast_dims=[0, 1])
    T74 = fd.ops.broadcast_in_dim(T69, shape=[2, 16, 64], broadcast_dims=[0, 1, 2])
    T75 = fd.ops.div(T63, T74)
    T76 = fd.ops.cast(T75, dtype=DataType.BFloat16)
    T77 = fd.ops.log(T74)
    T78 = fd.ops.sub(T62, T77)
    T79 = fd.ops.cast(T78, dtype=DataType.BFloat16)
    T80 = fd.ops.log(T64)
    T81 = fd.ops.add(T51, T80)
    fd.add_output(T7)
    fd.add_output(T21)
    fd.add_output(T35)
    fd.add_output(T76)
    fd.add_output(T79)
    fd.add_output(T81)

with FusionDefinition() as fd:
    nvfuser_fusion_id7(fd)

inputs = [
    torch.testing.make_tensor((2, 16, 64), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((2, 16, 64), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((64,), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((16, 64), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
