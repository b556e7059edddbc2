import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[5, -1, 15, -1], contiguity=[True, True, False, True], dtype=DataType.Half, is_cpu=False, stride_order=[0, 2, 1, 3])
    T1 = fd.define_tensor(shape=[5, 1, -1, 1], contiguity=[True, None, True, None], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.permute(T0, dims=[2, 0, 1, 3])
    T3 = fd.ops.gt(T0, 1.0)
    T4 = fd.ops.where(T3, T0, 1.0)
    T5 = fd.ops.logical_and(T3, True)
    T6 = fd.ops.where(T3, T3, True)
    T7 = fd.ops.neg(T4)
    T8 = fd.ops.log(T4)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(2700, dtype=torch.float16, device='cuda').as_strided((5, 9, 15, 4), (1, 75, 5, 675)),
    torch.testing.make_tensor((5, 1, 15, 1), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
