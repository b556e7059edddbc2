# expect: 8:26: CUDA tensor or a 0-dim CPU tensor
import torch
from nvfuser import FusionDefinition, DataType

x = torch.randn(4, 8)

with FusionDefinition() as fd:
    t0 = fd.from_pytorch(x)
    t1 = fd.ops.relu(t0)
    fd.add_output(t1)

fd.execute([x])
