import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 8, 16, -1], contiguity=[False, True, True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[3, 0, 2, 1])
    T1 = fd.define_tensor(shape=[-1, 5, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Int, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, False], dtype=DataType.Half, is_cpu=False, stride_order=[1, 2, 0])
    T3 = fd.ops.cast(T2, dtype=DataType.Half)
    T4 = fd.ops.gt(T1, 0)
    T5 = fd.ops.where(T4, T1, 0)
    T6 = fd.ops.set(T3)
    T7 = fd.ops.broadcast_in_dim(T2, shape=[10, 12, 8], broadcast_dims=[0, 1, 2])
    T8 = fd.ops.slice(T2, start_indices=[6, 10, 0], end_indices=[8, 11, 7])
    T9 = fd.ops.logical_not(T5)
    T10 = fd.ops.stride_order(T6, stride_order=[2, 1, 0])
    T11 = fd.ops.broadcast_in_dim(T1, shape=[12, 5, 3, 8], broadcast_dims=[0, 1, 2, 3])
    T12 = fd.ops.set(T9)
    T13 = fd.ops.max(T3, dims=[1, 2], keepdim=True)
    T14 = fd.ops.set(T1)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (11520,), dtype=torch.int32, device='cuda').as_strided((10, 8, 16, 9), (1152, 1, 72, 8)),
    torch.testing.make_tensor((12, 5, 3, 8), dtype=torch.int64, device='cuda'),
    torch.randn(960, dtype=torch.float16, device='cuda').as_strided((10, 12, 8), (8, 80, 1)),
]
fd.execute(inputs)
