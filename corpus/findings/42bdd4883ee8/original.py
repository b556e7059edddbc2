import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 4, 14, 2], contiguity=[False, True, True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[8, 1, 1, -1], contiguity=[True, None, True, None], dtype=DataType.Half, is_cpu=False, stride_order=[3, 2, 0, 1])
    T2 = fd.ops.stride_order(T0, stride_order=[0, 2, 3, 1])
    T3 = fd.ops.cumprod(T2, dim=1)
    T4 = fd.ops.div(T0, T1)
    T5 = fd.ops.cummin(T4, dim=1)
    T6 = fd.ops.cummax(T4, dim=2)
    T7 = fd.ops.log10(T6)
    T8 = fd.ops.cos(T7)
    fd.add_output(T8)
    fd.add_output(T5)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 4, 14, 2), dtype=torch.float16, device='cuda'),
    torch.randn(16, dtype=torch.float16, device='cuda').as_strided((8, 1, 1, 2), (2, 2, 1, 1)),
]
fd.execute(inputs)
