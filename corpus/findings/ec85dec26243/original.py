import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.cat([T0, T0], dim=0)
    T2 = fd.ops.segment_set(T1)
    T3 = fd.ops.cumsum(T1, dim=0)
    T4 = fd.ops.addcmul(T0, T0, T0, 0.5)
    T5 = fd.ops.pow(T0, T4)
    T6 = fd.ops.set(T2)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((9,), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
