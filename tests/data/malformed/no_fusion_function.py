# expect: 1:1: FusionDefinition
# Only the tail of an nvFuser error log was pasted: the fusion function is missing.
import torch
from nvfuser import FusionDefinition, DataType

with FusionDefinition() as fd:
    nvfuser_fusion_id3(fd)

inputs = [
    torch.testing.make_tensor((4, 8), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
