import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[11, 16, 3], contiguity=[True, True, True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.define_tensor(shape=[3], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T2 = fd.define_tensor(shape=[1, -1, 1], contiguity=[None, True, None], dtype=DataType.Int32, is_cpu=False)
    T3 = fd.ops.cast(T2, dtype=DataType.Half)
    T4 = fd.ops.expand(T2, shape=[3, -1, 3])
    T5 = fd.ops.sinh(T3)
    T6 = fd.ops.cummin(T4, dim=1)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T3)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11, 16, 3), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((3,), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((1, 16, 1), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
