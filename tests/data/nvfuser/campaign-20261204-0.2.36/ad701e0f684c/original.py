import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 2, -1, 1], contiguity=[True, True, True, None], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.define_tensor(shape=[6], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 2, 6], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T3 = fd.ops.prod(T0, dims=[0, 1], keepdim=False)
    T4 = fd.ops.squeeze(T3, dims=[1])
    T5 = fd.ops.bitwise_not(T1)
    T6 = fd.ops.cumsum(T0, dim=2)
    T7 = fd.ops.reshape(T6, new_shape=[360])
    T8 = fd.ops.cast(T0, dtype=DataType.BFloat16)
    T9 = fd.ops.where(T5, T5, T1)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((15, 2, 12, 1), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((6,), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((3, 2, 6), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
