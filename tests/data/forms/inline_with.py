# form 1: the fusion body written inline under `with FusionDefinition() as fd:` (no def)
import torch
from nvfuser import FusionDefinition, DataType

with FusionDefinition() as fd:
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.mul(T0, T1)
    T3 = fd.ops.exp(T2)  # the op the reduce test looks for
    T4 = fd.ops.sum(T3, dims=[1], keepdim=False, dtype=DataType.Float)
    fd.add_output(T2)
    fd.add_output(T4)

inputs = [
    torch.randn(8, 16, device="cuda"),
    torch.randn(8, 16, device="cuda"),
]
fd.execute(inputs)
