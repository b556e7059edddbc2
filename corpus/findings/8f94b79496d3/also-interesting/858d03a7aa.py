# also interesting: nvfuser internal-assert: device_lower/validation.cpp:validateAllocationVectorizedId: RuntimeError: The innermost position has to be contiguous. tv: T?_s_float[iblockIdx.y?{gridDim.y}, ithreadIdx.y?{blockDim.y}, iS?{(ceilDiv((ceilDiv(N, blockDim.y)), gridDim.y))}, ithreadIdx.x?{(ceilDiv((((((getMeta
# CUDA devices:
#  0: NVIDIA H100 80GB HBM3
# torch version: 2.4.0a0+git8d5fd5d
# cuda version: 12.4
# nvfuser version: 0.2.8+git0429a13
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id7(fd : FusionDefinition) -> None :
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[False, False], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    tv2 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T7 = fd.ops.cast(T2, dtype=DataType.Float)
    T15 = fd.ops.sum(T7, dims=[1], keepdim=False, dtype=DataType.Null)
    S16 = fd.define_scalar(1024.00, dtype=DataType.Double)
    T17 = fd.ops.div(T15, S16)
    S18 = fd.define_scalar(2, dtype=DataType.Int)
    S19 = fd.define_scalar(1, dtype=DataType.Int)
    T21 = fd.ops.broadcast_in_dim(T17, shape=[S18, S19], broadcast_dims=[0])
    T24 = fd.ops.mul(T21, tv2)
    S25 = fd.define_scalar(2, dtype=DataType.Int)
    S26 = fd.define_scalar(2, dtype=DataType.Int)
    T28 = fd.ops.broadcast_in_dim(T24, shape=[S25, S26], broadcast_dims=[0, 1])
    T29 = fd.ops.mul(T7, T28)
    T35 = fd.ops.sum(T7, dims=[0], keepdim=False, dtype=DataType.Null)
    fd.add_output(T29)
    fd.add_output(T35)

with FusionDefinition() as fd:
    nvfuser_fusion_id7(fd)

inputs = [
    torch.testing.make_tensor((2, 2), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((2, 1), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
