import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[3, -1], contiguity=[False, True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.define_tensor(shape=[4, 15, 10, -1], contiguity=[True, True, True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 2, 3, 0])
    T2 = fd.ops.bitwise_and(T0, False)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 5), dtype=torch.bool, device='cuda'),
    torch.randint(0, 10, (3000,), dtype=torch.int32, device='cuda').as_strided((4, 15, 10, 5), (5, 20, 300, 1)),
]
fd.execute(inputs)
