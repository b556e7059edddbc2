import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[10, 8, 15], contiguity=[True, True, False], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.cast(T0, dtype=DataType.Double)
    T2 = fd.ops.erf(T1)
    T3 = fd.ops.sum(T0, dims=[0, 2], keepdim=False)
    T4 = fd.ops.cast(T3, dtype=DataType.Int)
    T5 = fd.ops.max(T1, dims=[0], keepdim=False)
    T6 = fd.ops.set(T5)
    T7 = fd.ops.set(T0)
    T8 = fd.ops.sum(T3, dims=[0], keepdim=True)
    T9 = fd.ops.cast(T0, dtype=DataType.Bool)
    T10 = fd.ops.var(T5, dims=[0], correction=0, keepdim=False)
    T11 = fd.ops.lerp(T7, T2, 0.25)
    T12 = fd.ops.erf(T1)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((10, 8, 15), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
