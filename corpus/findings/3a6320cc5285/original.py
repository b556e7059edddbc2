import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, 2, -1, -1], contiguity=[None, True, True, True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, 4, 7], contiguity=[True, None, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 2, 0])
    T2 = fd.define_tensor(shape=[7, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False)
    T3 = fd.ops.set(T2)
    T4 = fd.ops.minimum(T1, 2.0)
    T5 = fd.ops.cast(T0, dtype=DataType.Half)
    T6 = fd.ops.cumsum(T2, dim=0)
    T7 = fd.ops.logical_or(T2, 2.0)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 2, 10, 13), dtype=torch.int64, device='cuda'),
    torch.randn(28, dtype=torch.bfloat16, device='cuda').as_strided((1, 4, 7), (7, 7, 1)),
    torch.testing.make_tensor((7, 14, 16, 10), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
