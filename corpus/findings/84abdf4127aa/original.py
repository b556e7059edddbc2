import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 14, 9, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.pow(T0, 0.5)
    T2 = fd.ops.exp2(T0)
    T3 = fd.ops.cummax(T2, dim=1)
    T4 = fd.ops.cumprod(T0, dim=2)
    T5 = fd.ops.lerp(T4, T2, 0.25)
    T6 = fd.ops.sum(T1, dims=[1, 3], keepdim=True)
    T7 = fd.ops.le(T6, T3)
    T8 = fd.ops.cos(T5)
    fd.add_output(T8)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12, 14, 9, 4), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
