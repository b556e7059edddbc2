import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Float, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1, 16], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 0, 1])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T3 = fd.ops.cumsum(T1, dim=1)
    T4 = fd.ops.cumprod(T0, dim=0)
    T5 = fd.ops.asin(T3)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((7,), dtype=torch.float32, device='cuda'),
    torch.randn(1344, dtype=torch.bfloat16, device='cuda').as_strided((12, 7, 16), (112, 1, 7)),
    torch.testing.make_tensor((4,), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
