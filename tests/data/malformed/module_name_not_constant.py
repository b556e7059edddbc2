# expect: 11:44: name 'N' is not a constant fmin can read
import torch
from nvfuser import FusionDefinition, DataType

x = torch.randn(4, 8, device="cuda")
M, N = 4, x.shape[1]
EPS = 1e-5

def fusion_func(fd: FusionDefinition) -> None:
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    T1 = fd.ops.reshape(T0, new_shape=[M * N])
    fd.add_output(T1)

with FusionDefinition() as fd:
    fusion_func(fd)

fd.execute([x])
