# CUDA devices:
#  0: NVIDIA H100 80GB HBM3
# torch version: 2.4.0a0+git8d5fd5d
# cuda version: 12.4
# nvfuser version: 0.2.8+git0429a13
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id7(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.sum(T0, dims=[1], keepdim=False, dtype=DataType.Null)
    S2 = fd.define_scalar(8, dtype=DataType.Int)
    S3 = fd.define_scalar(1, dtype=DataType.Int)
    V4 = fd.define_vector([S2, S3], dtype=DataType.Int)
    T5 = fd.ops.broadcast_in_dim(T1, shape=V4, broadcast_dims=[0])
    S6 = fd.define_scalar(8, dtype=DataType.Int)
    S7 = fd.define_scalar(8, dtype=DataType.Int)
    V8 = fd.define_vector([S6, S7], dtype=DataType.Int)
    T9 = fd.ops.broadcast_in_dim(T5, shape=V8, broadcast_dims=[0, 1])
    T10 = fd.ops.mul(T0, T9)
    T11 = fd.ops.cast(T10, dtype=DataType.BFloat16)
    T12 = fd.ops.sum(T0, dims=[0], keepdim=False, dtype=DataType.Null)
    T13 = fd.ops.cast(T12, dtype=DataType.BFloat16)
    fd.add_output(T11)
    fd.add_output(T13)

with FusionDefinition() as fd:
    nvfuser_fusion_id7(fd)

inputs = [
    torch.testing.make_tensor((8, 8), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
