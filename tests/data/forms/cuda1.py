# form 8: a script written for the second GPU (`cuda:1`), in four spellings
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T4 = fd.ops.add(T0, T1)
    T5 = fd.ops.mul(T2, T3)
    T6 = fd.ops.exp(T4)
    T7 = fd.ops.sub(T6, T5)
    fd.add_output(T7)
    fd.add_output(T4)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [
    torch.randn(4, 8, device="cuda:1"),
    torch.randn(4, 8, device=torch.device("cuda", 1)),
    torch.randn(4, 8).cuda(1),
    torch.randn(4, 8).to("cuda:1"),
]
fd.execute(inputs)
