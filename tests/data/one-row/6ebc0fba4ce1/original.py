import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 12], contiguity=[False, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 2, 0])
    T1 = fd.ops.cast(T0, dtype=DataType.BFloat16)
    T2 = fd.ops.acos(T1)
    T3 = fd.ops.cummin(T0, dim=0)
    T4 = fd.ops.addcmul(T0, T1, T0, 0.5)
    T5 = fd.ops.clamp(T3, -1.0, 1.0)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T2)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(1248, dtype=torch.bfloat16, device='cuda').as_strided((13, 8, 12), (12, 156, 1)),
]
fd.execute(inputs)
