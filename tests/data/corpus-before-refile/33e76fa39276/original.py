# CUDA devices:
#  0: NVIDIA H100 80GB HBM3
#  1: NVIDIA H100 80GB HBM3
# torch version: 2.9.0+cu128
# cuda version: 12.8
# nvfuser version: 0.2.35+git2b0490a
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 1, -1], contiguity=[True, None, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 1, 0])
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T2 = fd.ops.squeeze(T0, dims=[1], squeeze_expanded=False)
    T3 = fd.ops.cumsum(T2, dim=1)
    S4 = fd.define_scalar(0.00000, dtype=DataType.Double)
    T10 = fd.ops.pad(T3, [1, 0, 0, 0], S4)
    T20 = fd.ops.slice(T10, start_indices=[0, 0], end_indices=[8, 64], strides=[1, 1], manual_normalization=False)
    T21 = fd.ops.cat([T20, T1], dim=0, manual_padding=False)
    T22 = fd.ops.permute(T21, dims=[1, 0])
    T23 = fd.ops.stride_order(T22, stride_order=[0, 1])
    T24, T25, T26 = fd.ops.welford(T1, dims=[1])
    T27 = fd.ops.broadcast(T24, is_broadcast_dim=[False, True])
    T31 = fd.ops.expand(T27, shape=[-1, 64])
    T32 = fd.ops.sub(T1, T31)
    fd.add_output(T23)
    fd.add_output(T32)
    fd.add_output(T25)
    fd.add_output(T2, T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [
    torch.testing.make_tensor((8, 1, 64), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((8, 64), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
