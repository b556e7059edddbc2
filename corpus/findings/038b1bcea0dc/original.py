import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1], contiguity=[None], dtype=DataType.Double, is_cpu=False)
    T1 = fd.define_tensor(shape=[1], contiguity=[None], dtype=DataType.Float, is_cpu=False)
    T2 = fd.define_tensor(shape=[1], contiguity=[None], dtype=DataType.BFloat16, is_cpu=False)
    T3 = fd.ops.threshold(T2, 0.5, 0.0)
    T4 = fd.ops.truediv(T2, T3)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1,), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((1,), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((1,), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
