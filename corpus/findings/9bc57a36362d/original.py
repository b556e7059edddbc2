import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[4, -1, -1], contiguity=[True, True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[1, 0, 2])
    T1 = fd.define_tensor(shape=[4, 1, 1], contiguity=[True, None, None], dtype=DataType.Float, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 1, 1], contiguity=[False, None, None], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.set(T0)
    T4 = fd.ops.bitwise_not(T0)
    T5 = fd.ops.var(T1, dims=[1], correction=1, keepdim=False)
    T6 = fd.ops.sum(T3, dims=[2], keepdim=True)
    T7 = fd.ops.clamp(T5, -1.0, 1.0)
    T8, T9, T10 = fd.ops.welford(T1, dims=[0, 1])
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 2, (396,), dtype=torch.bool, device='cuda').as_strided((4, 9, 11), (9, 1, 36)),
    torch.testing.make_tensor((4, 1, 1), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((4, 1, 1), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
