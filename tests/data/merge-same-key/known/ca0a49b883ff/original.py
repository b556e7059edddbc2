import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 10, 10, 14], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1, -1, 16], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 0, 3, 1])
    T2 = fd.define_tensor(shape=[3, -1, 1, 1], contiguity=[True, False, None, None], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.frac(T0)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 10, 10, 14), dtype=torch.float16, device='cuda'),
    torch.randn(4608, dtype=torch.float32, device='cuda').as_strided((6, 4, 12, 16), (64, 1, 384, 4)),
    torch.testing.make_tensor((3, 10, 1, 1), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
