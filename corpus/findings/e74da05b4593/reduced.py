import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, 8], contiguity=[True, None], dtype=DataType.Int, is_cpu=False, stride_order=[0, 1])
    T1 = fd.define_tensor(shape=[1, 1, 5], contiguity=[None, None, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.cumprod(T0, dim=1)
    T3 = fd.ops.abs(T2)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (8,), dtype=torch.int64, device='cuda').as_strided((1, 8), (1, 1)),
    torch.testing.make_tensor((1, 1, 5), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
