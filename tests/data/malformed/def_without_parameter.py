# expect: 5:5: parameter
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0() -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.abs(T0)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0()

inputs = [
    torch.testing.make_tensor((4, 8), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
