import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[5], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.define_tensor(shape=[9, 2, -1, 16], contiguity=[True, False, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[3, 0, 1, 2])
    T2 = fd.define_tensor(shape=[5], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T3 = fd.ops.cumprod(T1, dim=2)
    T4 = fd.ops.sum(T1, dims=[1, 2, 3], keepdim=True)
    T5 = fd.ops.bitwise_not(T0)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((5,), dtype=torch.int64, device='cuda'),
    torch.randn(2016, dtype=torch.float16, device='cuda').as_strided((9, 2, 7, 16), (224, 1, 2, 14)),
    torch.testing.make_tensor((5,), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
