# form 6: the inputs passed inline, `fd.execute([torch.randn(...), ...])`, no `inputs` variable
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.add(T0, T1)
    T3 = fd.ops.exp(T2)
    fd.add_output(T3)
    fd.add_output(T2)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

out = fd.execute([torch.randn(4, 8, device="cuda"), torch.randn(4, 8, device="cuda")])
