import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    T3 = fd.ops.broadcast(T1, is_broadcast_dim=[False, True])
    T4 = fd.ops.where(T0, T0, T1)
    T5 = fd.ops.permute(T2, dims=[0])
    T6 = fd.ops.permute(T4, dims=[0])
    T7 = fd.ops.where(T4, T4, T0)
    T8 = fd.ops.sum(T5, dims=[0], keepdim=True)
    T9 = fd.ops.bitwise_and(T0, T6)
    T10 = fd.ops.gt(T8, 2.0)
    T11 = fd.ops.where(T10, T8, T5)
    fd.add_output(T11)
    fd.add_output(T9)
    fd.add_output(T7)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((14,), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((14,), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((14,), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
