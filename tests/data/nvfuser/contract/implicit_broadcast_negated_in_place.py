import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    column = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
    table = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    summed = fd.ops.add(table, column)
    negated = fd.ops.neg(column)
    fd.add_output(summed)
    fd.add_output(negated, column)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((32, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((32, 8), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
