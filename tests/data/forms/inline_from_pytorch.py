# form 1 (from_pytorch): an inline `with` body whose inputs are defined from concrete tensors
import torch
from nvfuser_direct import FusionDefinition, DataType

x = torch.randn(4, 8, device="cuda")
w = torch.randn(8, 4, device="cuda").t()  # a column-major view
with FusionDefinition() as fd:
    t0 = fd.from_pytorch(x)
    t1 = fd.from_pytorch(w, static_sizes=True)
    t2 = fd.ops.add(t0, t1)
    t3 = fd.ops.exp(t2)
    t4 = fd.ops.cast(t3, dtype=DataType.Half)
    fd.add_output(t2)
    fd.add_output(t4)

out = fd.execute([x, w])
