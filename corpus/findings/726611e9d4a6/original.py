import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, 16, 16], contiguity=[None, True, True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1, 16], contiguity=[True, True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[0, 2, 1])
    T2 = fd.define_tensor(shape=[15, 4, -1], contiguity=[False, True, True], dtype=DataType.Bool, is_cpu=False)
    T3 = fd.ops.expand(T0, shape=[4, -1, -1])
    T4 = fd.ops.broadcast_in_dim(T1, shape=[1, 1, 16, 16], broadcast_dims=[1, 2, 3])
    T5 = fd.ops.add(T0, 2)
    T6 = fd.ops.clamp(T5, -1, 2)
    T7 = fd.ops.cast(T0, dtype=DataType.Float)
    T8 = fd.ops.max(T3, dims=[0, 2], keepdim=True)
    T9 = fd.ops.min(T1, dims=[0, 1, 2], keepdim=True)
    T10 = fd.ops.tan(T7)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T6)
    fd.add_output(T7)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 16, 16), dtype=torch.int32, device='cuda'),
    torch.randint(0, 10, (256,), dtype=torch.int32, device='cuda').as_strided((1, 16, 16), (1, 16, 1)),
    torch.testing.make_tensor((15, 4, 15), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
