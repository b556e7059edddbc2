import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, 1], contiguity=[None, None], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, 1], contiguity=[None, None], dtype=DataType.Bool, is_cpu=False)
    T2 = fd.define_tensor(shape=[1], contiguity=[None], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.broadcast_in_dim(T1, shape=[1, 1], broadcast_dims=[0, 1])
    T4 = fd.ops.where(T0, T0, False)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 1), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((1, 1), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((1,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
