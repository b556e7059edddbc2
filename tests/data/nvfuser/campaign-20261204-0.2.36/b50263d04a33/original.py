import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[14], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.asinh(T0)
    T2 = fd.ops.lerp(T0, T1, 0.25)
    T3 = fd.ops.cast(T0, dtype=DataType.Double)
    T4 = fd.ops.lerp(T1, T2, 0.25)
    T5 = fd.ops.log2(T2)
    T6 = fd.ops.broadcast(T1, is_broadcast_dim=[True, False, True])
    T7 = fd.ops.cummax(T1, dim=0)
    T8 = fd.ops.max(T0, dims=[0], keepdim=True)
    T9, T10 = fd.ops.var_mean(T3, dims=[0], correction=0, keepdim=True)
    T11 = fd.ops.mul(T3, T1)
    T12 = fd.ops.expand(T9, shape=[6])
    T13 = fd.ops.max(T3, dims=[0], keepdim=True)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((14,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
