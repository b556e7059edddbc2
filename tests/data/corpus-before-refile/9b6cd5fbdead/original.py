import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[1], contiguity=[None], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int32, is_cpu=False)
    T3 = fd.ops.broadcast_in_dim(T2, shape=[13], broadcast_dims=[0])
    T4 = fd.ops.log1p(T1)
    T5 = fd.ops.cumprod(T2, dim=0)
    T6 = fd.ops.gcd(T2, T3)
    T7 = fd.ops.gt(T4, 0.5)
    T8 = fd.ops.cumprod(T1, dim=0)
    T9 = fd.ops.addcmul(T4, T1, T4, 0.5)
    T10 = fd.ops.cummin(T9, dim=0)
    T11 = fd.ops.broadcast_in_dim(T10, shape=[1], broadcast_dims=[0])
    T12 = fd.ops.segment_set(T7)
    T13 = fd.ops.min(T2, dims=[0], keepdim=True)
    T14 = fd.ops.cast(T9, dtype=DataType.Float)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((13,), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((1,), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((13,), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
