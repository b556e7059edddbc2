# CUDA devices:
#  0: NVIDIA H100 80GB HBM3
#  1: NVIDIA H100 80GB HBM3
# torch version: 2.9.0+cu128
# cuda version: 12.8
# nvfuser version: 0.2.35+git2b0490a
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 1, -1], contiguity=[True, None, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.squeeze(T0, dims=[1], squeeze_expanded=False)
    T3 = fd.ops.cumsum(T2, dim=1)
    S4 = fd.define_scalar(0.00000, dtype=DataType.Double)
    T5 = fd.ops.pad(T3, [1, 0, 0, 0], S4)
    T6 = fd.ops.slice(T5, start_indices=[0, 0], end_indices=[8, 64], strides=[1, 1], manual_normalization=0)
    T7 = fd.ops.cat([T6, T1], dim=0, manual_padding=0)
    T8 = fd.ops.permute(T7, dims=[1, 0])
    T9 = fd.ops.stride_order(T8, stride_order=[0, 1])
    T10, T11, T12 = fd.ops.welford(T1, dims=[1])
    T13 = fd.ops.broadcast(T10, is_broadcast_dim=[False, True])
    T14 = fd.ops.expand(T13, shape=[-1, 64])
    T15 = fd.ops.sub(T1, T14)
    fd.add_output(T9)
    fd.add_output(T15)
    fd.add_output(T11)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [
    torch.testing.make_tensor((8, 1, 64), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((8, 64), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
