import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[9, 15], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.addcmul(T0, T0, T0, 0.5)
    T2 = fd.ops.cosh(T1)
    T3 = fd.ops.cummin(T0, dim=0)
    T4 = fd.ops.log1p(T0)
    T5 = fd.ops.silu(T3)
    T6 = fd.ops.cast(T2, dtype=DataType.Float)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((9, 15), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
