import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 2], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, 1], contiguity=[None, None], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.ops.cumprod(T0, dim=0)
    T3 = fd.ops.segment_set(T2)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 2), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((1, 1), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
