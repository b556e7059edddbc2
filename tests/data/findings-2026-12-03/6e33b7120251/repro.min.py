import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int32, is_cpu=False)
    tv1 = fd.ops.cast(tv0, dtype=DataType.BFloat16)
    tv2 = fd.ops.broadcast_in_dim(tv1, shape=[1, 1, 1], broadcast_dims=[0])
    tv3 = fd.ops.cumprod(tv1, dim=0)
    tv4 = fd.ops.threshold(tv1, 0.5, 0.0)
    fd.add_output(tv4)
    fd.add_output(tv3)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1,), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
