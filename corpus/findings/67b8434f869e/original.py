import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 11], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[0, 1])
    T1 = fd.define_tensor(shape=[1, 1], contiguity=[None, None], dtype=DataType.Double, is_cpu=False)
    T2 = fd.ops.cast(T1, dtype=DataType.BFloat16)
    S3 = fd.define_scalar(-1, dtype=DataType.Int)
    T4 = fd.ops.logical_or(T0, S3)
    T5 = fd.ops.cumsum(T1, dim=0)
    S6 = fd.define_scalar(0.5, dtype=DataType.Double)
    T7 = fd.ops.addcmul(T2, T5, T2, S6)
    fd.add_output(T7)
    fd.add_output(T4)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (77,), dtype=torch.int64, device='cuda').as_strided((7, 11), (1, 7)),
    torch.testing.make_tensor((1, 1), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
