import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[10, 8, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.sum(T0, dims=[1, 2], keepdim=False)
    T2 = fd.ops.sqrt(T0)
    T3 = fd.ops.broadcast(T2, is_broadcast_dim=[False, False, False, True])
    T4 = fd.ops.cat([T1, T1], dim=0)
    T5 = fd.ops.cumprod(T4, dim=0)
    T6 = fd.ops.permute(T0, dims=[1, 0, 2])
    T7 = fd.ops.isneginf(T1)
    T8 = fd.ops.stride_order(T4, stride_order=[0])
    T9 = fd.ops.set(T5)
    T10 = fd.ops.cat([T5, T8], dim=0)
    T11 = fd.ops.cumsum(T1, dim=0)
    T12 = fd.ops.round(T0)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((10, 8, 12), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
