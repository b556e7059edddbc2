import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, -1], contiguity=[None, True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, 15], contiguity=[None, True], dtype=DataType.Int32, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 3, -1, 10], contiguity=[False, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 2, 0, 3])
    T3 = fd.ops.cast(T0, dtype=DataType.Float)
    T4 = fd.ops.set(T1)
    T5 = fd.ops.where(T0, T0, False)
    T6 = fd.ops.prod(T1, dims=[1], keepdim=True)
    T7 = fd.ops.slice(T2, start_indices=[3, 0, 2, 5], end_indices=[6, 2, 3, 10])
    T8 = fd.ops.slice(T0, start_indices=[0, 8], end_indices=[1, 9])
    T9 = fd.ops.segment_set(T2)
    T10 = fd.ops.set(T0)
    T11 = fd.ops.set(T0)
    T12 = fd.ops.cast(T11, dtype=DataType.BFloat16)
    T13 = fd.ops.broadcast_in_dim(T8, shape=[1, 1, 1, 4], broadcast_dims=[1, 2])
    T14 = fd.ops.expand(T5, shape=[7, -1])
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T10)
    fd.add_output(T6)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 15), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((1, 15), dtype=torch.int32, device='cuda'),
    torch.randn(540, dtype=torch.bfloat16, device='cuda').as_strided((6, 3, 3, 10), (3, 18, 1, 54)),
]
fd.execute(inputs)
