import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, 12], contiguity=[None, True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, 1], contiguity=[None, None], dtype=DataType.Int32, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 16, -1, 1], contiguity=[True, True, None, True], dtype=DataType.Int32, is_cpu=False, stride_order=[0, 2, 3, 1])
    T3 = fd.ops.expand(T2, shape=[-1, -1, -1, 4])
    T4 = fd.ops.ge(T2, T3)
    T5 = fd.ops.bitwise_and(T4, True)
    T6 = fd.ops.set(T5)
    T7 = fd.ops.segment_set(T5)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 12), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((1, 1), dtype=torch.int32, device='cuda'),
    torch.randint(0, 10, (1344,), dtype=torch.int32, device='cuda').as_strided((7, 16, 12, 1), (1, 7, 112, 7)),
]
fd.execute(inputs)
