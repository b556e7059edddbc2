import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[8, -1, 4], contiguity=[True, True, False], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, 12, 4], contiguity=[None, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.define_tensor(shape=[14, 14], contiguity=[False, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0, 1])
    T3 = fd.ops.cumsum(T2, dim=0)
    T4 = fd.ops.cast(T0, dtype=DataType.BFloat16)
    T5 = fd.ops.maximum(T3, -1.0)
    fd.add_output(T5)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 12, 4), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((1, 12, 4), dtype=torch.bfloat16, device='cuda'),
    torch.randn(196, dtype=torch.bfloat16, device='cuda').as_strided((14, 14), (1, 14)),
]
fd.execute(inputs)
