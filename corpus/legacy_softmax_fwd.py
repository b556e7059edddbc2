# CUDA devices:
#  0: NVIDIA A100-SXM4-80GB
# torch version: 2.6.0a0+gitdf5bbc0
# cuda version: 12.6
# nvfuser version: 0.2.23+git97544c3
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id3(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.Float)
    T2 = fd.ops.max(T1, dims=[1], keepdim=False, dtype=DataType.Null)
    T6 = fd.ops.broadcast_in_dim(T2, shape=[32, 1], broadcast_dims=[0])
    T7 = fd.ops.sub(T1, T6)
    T8 = fd.ops.exp(T7)
    T9 = fd.ops.sum(T8, dims=[1], keepdim=False, dtype=DataType.Null)
    T13 = fd.ops.broadcast_in_dim(T9, shape=[32, 128], broadcast_dims=[0])
    T14 = fd.ops.div(T8, T13)
    T15 = fd.ops.cast(T14, dtype=DataType.BFloat16)
    T16 = fd.ops.log(T13)
    T17 = fd.ops.sub(T7, T16)
    T18 = fd.ops.cast(T17, dtype=DataType.BFloat16)
    fd.add_output(T15)
    fd.add_output(T18)

with FusionDefinition() as fd:
    nvfuser_fusion_id3(fd)

inputs = [
    torch.testing.make_tensor((32, 128), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
