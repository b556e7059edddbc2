import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.define_tensor(shape=[13], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, -1, 9, 1], contiguity=[True, True, True, None], dtype=DataType.Bool, is_cpu=False)
    T3 = fd.ops.where(T2, T2, False)
    T4 = fd.ops.clamp(T1, -1.0, 1.0)
    T5 = fd.ops.cummin(T4, dim=0)
    T6 = fd.ops.min(T1, dims=[0], keepdim=True)
    T7 = fd.ops.where(T2, T2, True)
    T8 = fd.ops.sinh(T1)
    T9 = fd.ops.cast(T3, dtype=DataType.Float)
    T10 = fd.ops.abs(T5)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12, 10), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((13,), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((7, 11, 9, 1), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
