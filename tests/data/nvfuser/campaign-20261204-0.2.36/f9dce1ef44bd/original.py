import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[5, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.min(T0, dims=[0], keepdim=True)
    T2 = fd.ops.exp(T1)
    T3 = fd.ops.cast(T0, dtype=DataType.Int32)
    T4 = fd.ops.sum(T0, dims=[0], keepdim=False)
    T5 = fd.ops.maximum(T4, -1.0)
    T6 = fd.ops.cast(T0, dtype=DataType.Float)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((5, 5, 8, 3), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
