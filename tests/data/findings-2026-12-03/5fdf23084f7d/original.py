import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 6], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.broadcast(T0, is_broadcast_dim=[False, True, False])
    T3 = fd.ops.floor(T2)
    T4 = fd.ops.isnan(T3)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 6), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((4, 1), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
