import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.clamp(T0, -1.0, 1.0)
    T2 = fd.ops.cumprod(T1, dim=1)
    T3 = fd.ops.sqrt(T1)
    T4 = fd.ops.set(T0)
    T5 = fd.ops.cummin(T2, dim=1)
    T6 = fd.ops.slice(T1, start_indices=[3, 4], end_indices=[8, 12])
    T7 = fd.ops.pad(T0, [2, 2, 0, 0], 3.0)
    T8 = fd.ops.isnan(T0)
    T9 = fd.ops.pad(T5, [1, 2, 2, 2])
    T10, T11 = fd.ops.var_mean(T3, dims=[1], correction=0, keepdim=False)
    T12 = fd.ops.lerp(T9, 2.0, 0.25)
    T13 = fd.ops.cast(T7, dtype=DataType.Double)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T6)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 14), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
