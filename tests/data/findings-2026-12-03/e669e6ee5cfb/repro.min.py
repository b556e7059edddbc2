import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[9], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[False], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.clamp(T0, -1.0, 1.0)
    T4 = fd.ops.set(T0)
    T5 = fd.ops.cumsum(T4, dim=0)
    T6 = fd.ops.broadcast_in_dim(T4, shape=[9], broadcast_dims=[0])
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((9,), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((9,), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((9,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
