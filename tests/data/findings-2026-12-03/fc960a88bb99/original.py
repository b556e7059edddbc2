import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[11, 14, 10], contiguity=[True, False, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.cummax(T0, dim=0)
    T2 = fd.ops.cat([T0, T1], dim=1)
    T3 = fd.ops.cummax(T2, dim=0)
    T4 = fd.ops.broadcast_in_dim(T0, shape=[11, 14, 10], broadcast_dims=[0, 1, 2])
    T5 = fd.ops.lerp(T3, 2.0, 0.25)
    T6 = fd.ops.cumprod(T5, dim=0)
    T7 = fd.ops.set(T4)
    T8 = fd.ops.cumprod(T7, dim=0)
    T9 = fd.ops.logical_and(T6, T5)
    fd.add_output(T9)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11, 14, 10), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
