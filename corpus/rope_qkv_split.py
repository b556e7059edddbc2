# CUDA devices:
#  0: NVIDIA H100 80GB HBM3
# torch version: 2.6.0a0+gitdf5bbc0
# cuda version: 12.6
# nvfuser version: 0.2.23+git97544c3
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id2(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T9 = fd.ops.reshape(T0, new_shape=[2, 1024, 4, 6, 32])
    T10 = fd.ops.permute(T9, dims=[0, 2, 3, 1, 4])
    T11 = fd.ops.slice(T10, start_indices=[0, 0, 0, 0, 0], end_indices=[2, 4, 4, 1024, 32], strides=[1, 1, 1, 1, 1], manual_normalization=0)
    T12 = fd.ops.reshape(T11, new_shape=[2, 16, 1024, 32])
    T13 = fd.ops.slice(T12, start_indices=[0, 0, 0, 0], end_indices=[2, 16, 1024, 8], strides=[1, 1, 1, 1], manual_normalization=0)
    T14 = fd.ops.slice(T13, start_indices=[0, 0, 0, 0], end_indices=[2, 16, 1024, 4], strides=[1, 1, 1, 1], manual_normalization=0)
    T15 = fd.ops.slice(T13, start_indices=[0, 0, 0, 4], end_indices=[2, 16, 1024, 8], strides=[1, 1, 1, 1], manual_normalization=0)
    T16 = fd.ops.cast(T15, dtype=DataType.Float)
    T17 = fd.ops.neg(T16)
    T18 = fd.ops.cast(T17, dtype=DataType.BFloat16)
    T19 = fd.ops.cat([T18, T14], dim=-1, manual_padding=0)
    T20 = fd.ops.broadcast_in_dim(T1, shape=[2, 16, 1024, 8], broadcast_dims=[2, 3])
    T21 = fd.ops.cast(T13, dtype=DataType.Float)
    T22 = fd.ops.cast(T20, dtype=DataType.Float)
    T23 = fd.ops.mul(T21, T22)
    T24 = fd.ops.cast(T23, dtype=DataType.BFloat16)
    T25 = fd.ops.broadcast_in_dim(T2, shape=[2, 16, 1024, 8], broadcast_dims=[2, 3])
    T26 = fd.ops.cast(T19, dtype=DataType.Float)
    T27 = fd.ops.cast(T25, dtype=DataType.Float)
    T28 = fd.ops.mul(T26, T27)
    T29 = fd.ops.cast(T28, dtype=DataType.BFloat16)
    T30 = fd.ops.cast(T24, dtype=DataType.Float)
    T31 = fd.ops.cast(T29, dtype=DataType.Float)
    T32 = fd.ops.add(T30, T31)
    T33 = fd.ops.cast(T32, dtype=DataType.BFloat16)
    T34 = fd.ops.slice(T12, start_indices=[0, 0, 0, 8], end_indices=[2, 16, 1024, 32], strides=[1, 1, 1, 1], manual_normalization=0)
    T35 = fd.ops.cat([T33, T34], dim=-1, manual_padding=0)
    fd.add_output(T35)

with FusionDefinition() as fd:
    nvfuser_fusion_id2(fd)

inputs = [
    torch.testing.make_tensor((2, 1024, 768), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((1024, 8), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((1024, 8), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
