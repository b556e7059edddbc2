# CUDA devices:
#  0: NVIDIA H100 80GB HBM3
# torch version: 2.6.0a0+gitdf5bbc0
# cuda version: 12.6
# nvfuser version: 0.2.23+git97544c3
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id2(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T9 = fd.ops.reshape(T0, new_shape=[2, 1024, 4, 6, 32])
    T10 = fd.ops.permute(T9, dims=[0, 2, 3, 1, 4])
    T29 = fd.ops.slice(T10, start_indices=[0, 0, 0, 0, 0], end_indices=[2, 4, 4, 1024, 32], strides=[1, 1, 1, 1, 1], manual_normalization=False)
    T35 = fd.ops.reshape(T29, new_shape=[2, 16, 1024, 32])
    T51 = fd.ops.slice(T35, start_indices=[0, 0, 0, 0], end_indices=[2, 16, 1024, 8], strides=[1, 1, 1, 1], manual_normalization=False)
    T67 = fd.ops.slice(T51, start_indices=[0, 0, 0, 0], end_indices=[2, 16, 1024, 4], strides=[1, 1, 1, 1], manual_normalization=False)
    T83 = fd.ops.slice(T51, start_indices=[0, 0, 0, 4], end_indices=[2, 16, 1024, 8], strides=[1, 1, 1, 1], manual_normalization=False)
    T84 = fd.ops.cast(T83, dtype=DataType.Float)
    T85 = fd.ops.neg(T84)
    T86 = fd.ops.cast(T85, dtype=DataType.BFloat16)
    T87 = fd.ops.cat([T86, T67], dim=-1, manual_padding=False)
    T93 = fd.ops.broadcast_in_dim(T1, shape=[2, 16, 1024, 8], broadcast_dims=[2, 3])
    T94 = fd.ops.cast(T51, dtype=DataType.Float)
    T95 = fd.ops.cast(T93, dtype=DataType.Float)
    T96 = fd.ops.mul(T94, T95)
    T97 = fd.ops.cast(T96, dtype=DataType.BFloat16)
    T103 = fd.ops.broadcast_in_dim(T2, shape=[2, 16, 1024, 8], broadcast_dims=[2, 3])
    T104 = fd.ops.cast(T87, dtype=DataType.Float)
    T105 = fd.ops.cast(T103, dtype=DataType.Float)
    T106 = fd.ops.mul(T104, T105)
    T107 = fd.ops.cast(T106, dtype=DataType.BFloat16)
    T108 = fd.ops.cast(T97, dtype=DataType.Float)
    T109 = fd.ops.cast(T107, dtype=DataType.Float)
    T110 = fd.ops.add(T108, T109)
    T111 = fd.ops.cast(T110, dtype=DataType.BFloat16)
    T127 = fd.ops.slice(T35, start_indices=[0, 0, 0, 8], end_indices=[2, 16, 1024, 32], strides=[1, 1, 1, 1], manual_normalization=False)
    T128 = fd.ops.cat([T111, T127], dim=-1, manual_padding=False)
    fd.add_output(T128)

with FusionDefinition() as fd:
    nvfuser_fusion_id2(fd)

inputs = [
    torch.testing.make_tensor((2, 1024, 768), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((1024, 8), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((1024, 8), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
