import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 14, 6, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[3, 2, 0, 1])
    T1 = fd.ops.gt(T0, 2.0)
    T2 = fd.ops.where(T1, T0, 3.0)
    T3 = fd.ops.threshold(T2, 0.5, 0.0)
    T4 = fd.ops.logical_not(T1)
    T5 = fd.ops.cast(T2, dtype=DataType.Half)
    T6 = fd.ops.cast(T3, dtype=DataType.Bool)
    T7 = fd.ops.cummax(T5, dim=2)
    T8 = fd.ops.cast(T1, dtype=DataType.Bool)
    T9 = fd.ops.sigmoid(T5)
    T10 = fd.ops.sum(T6, dims=[0, 1, 3], keepdim=False)
    T11 = fd.ops.sum(T4, dims=[1, 3], keepdim=False)
    T12 = fd.ops.min(T10, dims=[0], keepdim=True)
    T13 = fd.ops.pad(T5, [2, 1])
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T9)
    fd.add_output(T10)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(5040, dtype=torch.float32, device='cuda').as_strided((12, 14, 6, 5), (420, 30, 1, 6)),
]
fd.execute(inputs)
