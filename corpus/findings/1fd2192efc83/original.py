import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 7, 15, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.min(T0, dims=[0, 1, 2, 3], keepdim=True)
    T2 = fd.ops.cummin(T1, dim=2)
    T3 = fd.ops.permute(T2, dims=[1, 2, 0, 3])
    T4, T5, T6 = fd.ops.welford(T0, dims=[0, 2, 3])
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((10, 7, 15, 14), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
