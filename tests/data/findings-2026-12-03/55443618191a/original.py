import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[13], contiguity=[False], dtype=DataType.Half, is_cpu=False)
    T1 = fd.ops.prod(T0, dims=[0], keepdim=True)
    T2 = fd.ops.max(T0, dims=[0], keepdim=True)
    T3 = fd.ops.remainder(T2, T0)
    T4 = fd.ops.ge(T2, T3)
    T5 = fd.ops.cumprod(T0, dim=0)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((13,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
