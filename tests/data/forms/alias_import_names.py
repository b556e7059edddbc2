# form 4: `from nvfuser import FusionDefinition as FD, DataType as DT`
import torch
from nvfuser import FusionDefinition as FD, DataType as DT

def fusion_func(fd: FD) -> None:
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DT.BFloat16, is_cpu=False)
    T1 = fd.ops.cast(T0, dtype=DT.Float)
    T2 = fd.ops.exp(T1)
    T3 = fd.ops.cast(T2, dtype=DT.BFloat16)
    fd.add_output(T3)
    fd.add_output(T1)

with FD() as fd:
    fusion_func(fd)

inputs = [torch.randn(4, 8, device="cuda", dtype=torch.bfloat16)]
fd.execute(inputs)
