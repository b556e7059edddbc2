import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[6, 7], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Int32, is_cpu=False)
    T2 = fd.ops.cast(T0, dtype=DataType.Bool)
    T3 = fd.ops.isinf(T0)
    T4 = fd.ops.set(T3)
    T5 = fd.ops.bitwise_not(T2)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((6, 7), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((6, 1), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
