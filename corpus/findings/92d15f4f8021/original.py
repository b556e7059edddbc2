# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    tv2 = fd.ops.cast(tv0, dtype=DataType.Float)
    tv3 = fd.ops.mul(tv2, tv2)
    tv4 = fd.ops.sum(tv3, dims=[1], dtype=DataType.Float)
    c1 = fd.ops.size(tv3, dim=1)
    c18 = fd.ops.cast(c1, dtype=DataType.Double)
    tv5 = fd.ops.div(tv4, c18)
    tv6 = fd.ops.add(tv5, 1.00000e-06)
    tv7 = fd.ops.rsqrt(tv6)
    tv8 = fd.ops.broadcast(tv7, is_broadcast_dim=[False, True])
    tv9 = fd.ops.mul(tv2, tv8)
    tv10 = fd.ops.cast(tv1, dtype=DataType.Float)
    tv11 = fd.ops.broadcast(tv10, is_broadcast_dim=[True, False])
    tv12 = fd.ops.mul(tv9, tv11)
    tv13 = fd.ops.cast(tv12, dtype=DataType.BFloat16)
    fd.add_output(tv13)
    fd.add_output(tv7)
    D0 = fd.ops.cast(tv0, dtype=DataType.Float)
    D1 = fd.ops.mul(D0, D0)
    D2 = fd.ops.size(D1, dim=1)
    D3 = fd.ops.cast(D2, dtype=DataType.Double)
    fd.add_output(D3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(512, dtype=torch.bfloat16, device='cuda:0').as_strided((16, 512), (0, 1)),
    torch.testing.make_tensor((512,), dtype=torch.float16, device='cuda:0'),
]
fd.execute(inputs)
