import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 8], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[13, 1], contiguity=[False, None], dtype=DataType.Int, is_cpu=False)
    T3 = fd.ops.min(T2, dims=[0], keepdim=False)
    T4 = fd.ops.gt(T2, 2)
    T5 = fd.ops.where(T4, T2, T0)
    T6 = fd.ops.logical_not(T2)
    T7 = fd.ops.logical_not(T4)
    T8 = fd.ops.cast(T3, dtype=DataType.Float)
    T9 = fd.ops.sum(T0, dims=[0, 1], keepdim=True)
    T10 = fd.ops.cast(T5, dtype=DataType.Bool)
    T11 = fd.ops.where(T10, T10, True)
    T12 = fd.ops.bitwise_not(T4)
    T13 = fd.ops.set(T11)
    T14 = fd.ops.where(T12, T9, 1)
    T15 = fd.ops.segment_set(T1)
    fd.add_output(T15)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((13, 8), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((13, 8), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((13, 1), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
