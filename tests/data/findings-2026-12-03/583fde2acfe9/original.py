import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1, 9], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.ops.isnan(T0)
    T2 = fd.ops.segment_set(T1)
    T3 = fd.ops.cast(T0, dtype=DataType.Int32)
    T4 = fd.ops.cumsum(T3, dim=1)
    T5 = fd.ops.cumprod(T0, dim=1)
    T6 = fd.ops.prod(T3, dims=[0, 2, 3], keepdim=True)
    T7 = fd.ops.tan(T0)
    T8 = fd.ops.permute(T1, dims=[3, 0, 2, 1])
    T9 = fd.ops.logical_or(T8, True)
    fd.add_output(T9)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 3, 3, 9), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
