import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.ops.sum(T0, dims=[0, 1], keepdim=False)
    T2 = fd.ops.cumprod(T0, dim=0)
    T3 = fd.ops.max(T2, dims=[0, 1], keepdim=False)
    T4 = fd.ops.atanh(T3)
    T5 = fd.ops.sum(T2, dims=[1, 3], keepdim=False)
    T6 = fd.ops.cumprod(T4, dim=0)
    T7 = fd.ops.cat([T4, T4], dim=0)
    T8 = fd.ops.mul(T5, 0.5)
    T9 = fd.ops.atan(T0)
    T10 = fd.ops.set(T1)
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
