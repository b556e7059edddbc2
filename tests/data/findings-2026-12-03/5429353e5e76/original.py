import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[3, -1, 2], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[1, 0, 2])
    T1 = fd.define_tensor(shape=[1, 1, 2], contiguity=[None, True, None], dtype=DataType.Float, is_cpu=False, stride_order=[0, 2, 1])
    T2 = fd.define_tensor(shape=[3, -1, 1], contiguity=[True, True, None], dtype=DataType.Int, is_cpu=False, stride_order=[1, 2, 0])
    T3 = fd.ops.cumprod(T1, dim=1)
    T4 = fd.ops.cummin(T2, dim=1)
    T5 = fd.ops.slice(T1, start_indices=[0, 0, 0], end_indices=[1, 1, 1])
    T6 = fd.ops.silu(T1)
    T7 = fd.ops.gcd(T2, T4)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T3)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(78, dtype=torch.float16, device='cuda').as_strided((3, 13, 2), (13, 1, 39)),
    torch.randn(2, dtype=torch.float32, device='cuda').as_strided((1, 1, 2), (1, 2, 1)),
    torch.randint(0, 10, (39,), dtype=torch.int64, device='cuda').as_strided((3, 13, 1), (1, 3, 1)),
]
fd.execute(inputs)
