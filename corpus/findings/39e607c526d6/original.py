import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.segment_set(T0)
    T2 = fd.ops.cat([T0, T1], dim=0)
    T3 = fd.ops.cast(T2, dtype=DataType.Half)
    T4 = fd.ops.stride_order(T1, stride_order=[0, 1])
    T5 = fd.ops.silu(T1)
    T6 = fd.ops.segment_set(T5)
    T7 = fd.ops.lt(T6, T0)
    T8 = fd.ops.max(T4, dims=[1], keepdim=True)
    T9 = fd.ops.cast(T4, dtype=DataType.Half)
    T10 = fd.ops.addcmul(T0, T0, T0, 0.5)
    T11 = fd.ops.cumsum(T4, dim=0)
    T12, T13, T14 = fd.ops.welford(T10, dims=[0])
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((13, 15), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
