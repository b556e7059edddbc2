import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 16, -1], contiguity=[True, True, True, True], dtype=DataType.Int, is_cpu=False, stride_order=[0, 1, 2, 3])
    T1 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[1, 14, 1, -1], contiguity=[None, True, True, None], dtype=DataType.Half, is_cpu=False, stride_order=[0, 1, 3, 2])
    T3 = fd.ops.lerp(T2, 2.0, 0.25)
    T4 = fd.ops.threshold(T2, 0.5, 0.0)
    T5 = fd.ops.cummax(T2, dim=1)
    T6 = fd.ops.gt(T5, 0.0)
    T7 = fd.ops.where(T6, T5, 1.0)
    fd.add_output(T7)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (28672,), dtype=torch.int64, device='cuda').as_strided((8, 14, 16, 16), (1, 8, 112, 1792)),
    torch.testing.make_tensor((9,), dtype=torch.float16, device='cuda'),
    torch.randn(224, dtype=torch.float16, device='cuda').as_strided((1, 14, 1, 16), (1, 1, 224, 14)),
]
fd.execute(inputs)
