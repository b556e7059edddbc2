# probe used for m.* captures (nvfuser_direct 0.2.36.dev20260301 on H200, NVFUSER_DISABLE=parallel_compile)
import torch
from nvfuser_direct import FusionDefinition, DataType
with FusionDefinition() as fd:
    t0 = fd.define_tensor(shape=[-1,-1], contiguity=[True,True], dtype=DataType.Float)
    t1 = fd.ops.sum(t0, dims=[1])
    t2 = fd.ops.broadcast(t1, [False, True])
    t3 = fd.ops.sub(t0, t2)
    t4 = fd.ops.exp(t3)
    fd.add_output(t4)
fd.execute([torch.randn(16, 1<<20, device='cuda')])
