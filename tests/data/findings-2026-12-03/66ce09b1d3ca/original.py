import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 16], contiguity=[True, True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[1, 2, 0])
    T1 = fd.ops.set(T0)
    T2 = fd.ops.permute(T0, dims=[2, 0, 1])
    T3 = fd.ops.sign(T1)
    T4 = fd.ops.cumsum(T3, dim=1)
    T5 = fd.ops.cumprod(T2, dim=2)
    T6 = fd.ops.cast(T5, dtype=DataType.Double)
    fd.add_output(T6)
    fd.add_output(T4)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (704,), dtype=torch.int32, device='cuda').as_strided((11, 4, 16), (16, 176, 1)),
]
fd.execute(inputs)
