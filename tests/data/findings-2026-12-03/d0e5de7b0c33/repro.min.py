import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[11, -1, 1, 11], contiguity=[True, True, None, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[11, 3, 1, 11], contiguity=[True, True, None, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.set(T1)
    T3 = fd.ops.broadcast(T2, is_broadcast_dim=[False, False, False, False])
    T4 = fd.ops.cumsum(T2, dim=1)
    T5 = fd.ops.cumsum(T2, dim=1)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11, 3, 1, 11), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((11, 3, 1, 11), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
