# form 3: the legacy positional stride order `fd.add_output(T, [2, 1, 0])`
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.exp(T0)
    T2 = fd.ops.neg(T0)
    fd.add_output(T1, [0, 1, 2])
    fd.add_output(T2, stride_order=[2, 0, 1])

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [
    torch.testing.make_tensor((2, 3, 4), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
