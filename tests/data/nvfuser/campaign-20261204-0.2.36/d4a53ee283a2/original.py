import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0, 1])
    T1 = fd.define_tensor(shape=[14, 1], contiguity=[None, True], dtype=DataType.Bool, is_cpu=False, stride_order=[0, 1])
    T2 = fd.ops.segment_set(T0)
    T3 = fd.ops.cumprod(T0, dim=0)
    T4 = fd.ops.gt(T3, T0)
    T5 = fd.ops.cumprod(T0, dim=0)
    T6 = fd.ops.cast(T2, dtype=DataType.Double)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(140, dtype=torch.bfloat16, device='cuda').as_strided((14, 10), (1, 14)),
    torch.randint(0, 2, (14,), dtype=torch.bool, device='cuda').as_strided((14, 1), (1, 14)),
]
fd.execute(inputs)
