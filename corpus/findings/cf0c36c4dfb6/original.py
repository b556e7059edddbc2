import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[5, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[0, 3, 2, 1])
    T1 = fd.ops.cumsum(T0, dim=0)
    T2 = fd.ops.cumsum(T0, dim=3)
    T3 = fd.ops.cumsum(T0, dim=3)
    S4 = fd.define_scalar(-1.0, dtype=DataType.Double)
    T5 = fd.ops.pad(T1, [1, 0], S4)
    T6 = fd.ops.prod(T5, dims=[0, 2], keepdim=False)
    T7 = fd.ops.cast(T5, dtype=DataType.BFloat16)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T3)
    fd.add_output(T2)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(10560, dtype=torch.float32, device='cuda').as_strided((5, 11, 16, 12), (1, 960, 60, 5)),
]
fd.execute(inputs)
