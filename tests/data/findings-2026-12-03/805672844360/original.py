import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[6, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.cast(T0, dtype=DataType.Float)
    T3 = fd.ops.cummax(T0, dim=0)
    T4 = fd.ops.gt(T0, T3)
    T5 = fd.ops.max(T0, dims=[0, 1], keepdim=True)
    T6 = fd.ops.fmod(T0, T1)
    T7 = fd.ops.cummin(T1, dim=1)
    T8 = fd.ops.set(T1)
    T9 = fd.ops.cast(T6, dtype=DataType.BFloat16)
    T10 = fd.ops.cast(T5, dtype=DataType.BFloat16)
    T11 = fd.ops.var(T2, dims=[0], correction=0, keepdim=False)
    T12 = fd.ops.cummax(T0, dim=1)
    T13 = fd.ops.isposinf(T9)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((6, 14), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((6, 1), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
