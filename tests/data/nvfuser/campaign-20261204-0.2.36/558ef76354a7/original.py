import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[15, -1, 6], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[0, 1, 2])
    T1 = fd.define_tensor(shape=[1, 1, 1], contiguity=[None, None, None], dtype=DataType.Int32, is_cpu=False, stride_order=[2, 0, 1])
    T2 = fd.ops.cat([T0, T0], dim=2)
    T3 = fd.ops.gt(T2, 0.0)
    T4 = fd.ops.where(T3, T2, -1.0)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(1350, dtype=torch.float16, device='cuda').as_strided((15, 15, 6), (1, 15, 225)),
    torch.testing.make_tensor((1, 1, 1), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
