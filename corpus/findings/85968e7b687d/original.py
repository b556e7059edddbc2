import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.define_tensor(shape=[7, -1], contiguity=[True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[0, 1])
    T2 = fd.define_tensor(shape=[3], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T3 = fd.ops.sum(T2, dims=[0], keepdim=True)
    T4 = fd.ops.add(T0, 3.0)
    T5 = fd.ops.cast(T2, dtype=DataType.Int32)
    T6 = fd.ops.cast(T4, dtype=DataType.Int32)
    T7 = fd.ops.neg(T1)
    T8 = fd.ops.max(T6, dims=[0], keepdim=True)
    T9 = fd.ops.maximum(T4, T0)
    T10 = fd.ops.max(T7, dims=[0], keepdim=False)
    T11 = fd.ops.neg(T5)
    T12 = fd.ops.broadcast_in_dim(T0, shape=[3], broadcast_dims=[0])
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3,), dtype=torch.float32, device='cuda'),
    torch.randint(0, 10, (42,), dtype=torch.int32, device='cuda').as_strided((7, 6), (1, 7)),
    torch.testing.make_tensor((3,), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
