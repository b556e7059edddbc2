# nondeterministic
# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.ops.uniform(0, 1, [16, 16])
    tv3 = fd.ops.lt(tv2, 0.900000)
    tv4 = fd.ops.div(tv0, 0.900000)
    c5 = fd.define_scalar(0.00000, dtype=DataType.Float)
    tv6 = fd.ops.full(shape=[16, 16], fill_value=c5, dtype=DataType.Float)
    tv7 = fd.ops.where(tv3, tv4, tv6)
    tv8 = fd.ops.iota(length=16, start=0, step=1)
    tv9 = fd.ops.cast(tv8, dtype=DataType.Float)
    tv10 = fd.ops.broadcast(tv9, is_broadcast_dim=[False, True])
    tv11 = fd.ops.add(tv7, tv10)
    tv12 = fd.ops.triu(tv0, diagonal=1)
    tv13 = fd.ops.rand_like(tv1)
    tv14 = fd.ops.addcmul(tv11, tv12, tv13, 0.500000)
    fd.add_output(tv11)
    fd.add_output(tv14)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((16, 16), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((16, 16), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
