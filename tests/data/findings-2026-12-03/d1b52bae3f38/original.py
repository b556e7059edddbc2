import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.ops.max(T0, dims=[0], keepdim=True)
    T2 = fd.ops.div(T1, T0)
    T3 = fd.ops.cast(T2, dtype=DataType.Int)
    T4 = fd.ops.max(T0, dims=[0], keepdim=True)
    T5 = fd.ops.permute(T3, dims=[0])
    T6 = fd.ops.neg(T3)
    T7 = fd.ops.remainder(T4, T2)
    T8 = fd.ops.fmod(T0, T7)
    T9, T10 = fd.ops.var_mean(T0, dims=[0], correction=1, keepdim=True)
    T11 = fd.ops.permute(T3, dims=[0])
    T12 = fd.ops.addcmul(T2, T2, T2, 0.5)
    T13 = fd.ops.cummax(T12, dim=0)
    fd.add_output(T13)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11,), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
