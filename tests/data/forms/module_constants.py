# form 2: module-level constants used inside the fusion function and by the inputs list
import torch
from nvfuser import FusionDefinition, DataType

M, N = 16, 32
HALF = N // 2
EPS = 1e-5
DIMS = [1]

def fusion_func(fd: FusionDefinition) -> None:
    T0 = fd.define_tensor(shape=[M, N], contiguity=[True, True], dtype=DataType.Float)
    S1 = fd.define_scalar(EPS, dtype=DataType.Double)
    T2 = fd.ops.add(T0, S1)
    T3 = fd.ops.slice(T2, start_indices=[0, 0], end_indices=[M, HALF], strides=[1, 1])
    T4 = fd.ops.exp(T3)
    T5 = fd.ops.sum(T4, dims=DIMS, keepdim=False, dtype=DataType.Float)
    fd.add_output(T3)
    fd.add_output(T5)

with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [torch.randn(M, N, device="cuda")]
fd.execute(inputs)
