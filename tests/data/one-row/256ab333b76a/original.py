import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[15, -1, -1], contiguity=[True, True, True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.define_tensor(shape=[15, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 10], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[0, 1])
    T3 = fd.ops.cat([T0, T0], dim=1)
    T4 = fd.ops.cast(T3, dtype=DataType.Int32)
    T5 = fd.ops.eq(T0, False)
    T6 = fd.ops.segment_set(T5)
    fd.add_output(T6)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15, 11, 2), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((15, 11), dtype=torch.float16, device='cuda'),
    torch.randint(0, 10, (60,), dtype=torch.int64, device='cuda').as_strided((6, 10), (1, 6)),
]
fd.execute(inputs)
