import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.ops.sum(T0, dims=[0, 1], keepdim=False)
    T2 = fd.ops.cumprod(T0, dim=0)
    T3 = fd.ops.cummin(T0, dim=1)
    T4 = fd.ops.atanh(T3)
    T5 = fd.ops.sum(T2, dims=[1, 3], keepdim=False)
    T6 = fd.ops.cumprod(T4, dim=2)
    T7 = fd.ops.cat([T4, T2], dim=0)
    T8 = fd.ops.max(T2, dims=[0, 1], keepdim=False)
    T9 = fd.ops.logical_and(T5, 2.0)
    T10 = fd.ops.sub(T2, 1.0)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((16, 4, 14, 6), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
