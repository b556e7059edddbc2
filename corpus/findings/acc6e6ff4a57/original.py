import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, -1, 13], contiguity=[True, None, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 2, 0])
    T1 = fd.define_tensor(shape=[9, 11, 6], contiguity=[True, True, False], dtype=DataType.Bool, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T3 = fd.ops.set(T2)
    T4 = fd.ops.bitwise_or(T1, False)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (39,), dtype=torch.int32, device='cuda').as_strided((1, 3, 13), (13, 13, 1)),
    torch.testing.make_tensor((9, 11, 6), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((3,), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
