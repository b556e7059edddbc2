import torch
from nvfuser_direct import FusionDefinition, DataType

# a max reduction of welford's count, whose dtype is nvFuser's Index type: max asks
# ops::getMinimumValue for its init value (expected: "Could not generate a min op ... nvfuser_index_t")
def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1, T2, T3 = fd.ops.welford(T0, dims=[1])
    T4 = fd.ops.max(T3, dims=[0], keepdim=False)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 5), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
