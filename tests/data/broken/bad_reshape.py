# expect: fusion runtime
# A reshape of 4 096 elements to [16, 128]: fmin's static check rejects it; the failure is the fusion's.
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.exp(tv0)
    tv2 = fd.ops.sum(tv1, dims=[1], keepdim=False, dtype=DataType.Float)
    tv3 = fd.ops.reshape(tv1, new_shape=[16, 128])
    fd.add_output(tv2)
    fd.add_output(tv3)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((64, 64), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
