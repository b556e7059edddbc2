import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.ops.broadcast_in_dim(T0, shape=[1, 7, 6, 2], broadcast_dims=[1, 2, 3])
    T2 = fd.ops.set(T0)
    T3 = fd.ops.set(T0)
    T4 = fd.ops.lerp(T2, T0, 0.25)
    T5 = fd.ops.frac(T3)
    T6 = fd.ops.sum(T3, dims=[0], keepdim=True)
    T7 = fd.ops.ge(T6, T3)
    T8 = fd.ops.broadcast(T2, is_broadcast_dim=[False, True, False, False])
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T5)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((7, 6, 2), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
