import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[9, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 1, 1], contiguity=[None, None, False], dtype=DataType.Bool, is_cpu=False, stride_order=[0, 1, 2])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.set(T2)
    T4 = fd.ops.cast(T2, dtype=DataType.Double)
    T5 = fd.ops.pad(T3, [2, 0, 1, 1], 0.0)
    T6 = fd.ops.cummax(T0, dim=1)
    T7 = fd.ops.cos(T2)
    T8 = fd.ops.set(T2)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((9, 3, 2), dtype=torch.bfloat16, device='cuda'),
    torch.randint(0, 2, (9,), dtype=torch.bool, device='cuda').as_strided((9, 1, 1), (1, 9, 9)),
    torch.testing.make_tensor((11, 8), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
