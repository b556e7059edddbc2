import torch
from nvfuser_direct import FusionDefinition, DataType

# a fusion input defined expanded (size 6, stride 0 in dim 1) given a tensor that is not: the
# validation names the fusion input T0 (expected: a user error, "input-mismatch")
def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(sizes=[4, 6], strides=[1, 0], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.neg(T0)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 6), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
