# Runs alias_strided.py's fusion once on the installed nvFuser and prints what it wrote: the view,
# the whole 6-element buffer, and what eager torch computes (the H200 log of issue 15 is this
# script's output, tests/data/nvfuser/logs-0.2.36/alias_strided.log).
import torch
from nvfuser_direct import FusionDefinition, DataType

with FusionDefinition() as fd:
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, True], dtype=DataType.Float)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    tv2 = fd.ops.abs(tv1)
    tv3 = fd.ops.mul(tv2, 0.5)
    tv4 = fd.ops.sum(tv3, dims=[1])
    fd.add_output(tv3, tv0)
    fd.add_output(tv4)

torch.manual_seed(0)
base = torch.zeros(6, device="cuda")
x = base.as_strided((2, 2), (3, 1))
y = torch.rand(2, 2, device="cuda")
out = fd.execute([x, y])
torch.cuda.synchronize()
want = torch.zeros(6)
want.as_strided((2, 2), (3, 1)).copy_(y.abs().cpu() * 0.5)
print("view after execute:", x.cpu().tolist())
print("buffer after execute:", base.cpu().tolist())
print("buffer eager torch writes:", want.tolist())
print("other output:", [t.cpu().tolist() for t in out])
print("VIEW_OK" if torch.equal(x.cpu(), want.as_strided((2, 2), (3, 1))) else "VIEW_WRONG")
print("BUFFER_OK" if torch.equal(base.cpu(), want) else "BUFFER_WRONG")
