# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, False], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[False, False], dtype=DataType.Float, is_cpu=False)
    c5 = fd.define_scalar(None, dtype=DataType.Double)
    tv8 = fd.ops.gt(tv0, tv1)
    tv9 = fd.ops.sigmoid(tv0)
    tv10 = fd.ops.abs(tv1)
    tv11 = fd.ops.where(tv8, tv9, tv10)
    tv16 = fd.ops.max(tv11, dims=[1])
    tv17 = fd.ops.min(tv11, dims=[1])
    tv18 = fd.ops.sub(tv16, tv17)
    tv4 = fd.ops.lerp(tv0, tv1, c5)
    tv2 = fd.ops.clamp(tv0, -1.00000, 1.00000)
    tv3 = fd.ops.threshold(tv1, 0.500000, 0.00000)
    tv5 = fd.ops.mul(tv3, 0.500000)
    tv6 = fd.ops.mul(tv2, tv5)
    tv7 = fd.ops.add(tv4, tv6)
    tv12, tv13, tv14 = fd.ops.welford(tv7, dims=[1])
    c1 = fd.ops.size(tv7, dim=1)
    c62 = fd.ops.cast(c1, dtype=DataType.Double)
    c64 = fd.ops.mul(1.00000, c62)
    c68 = fd.ops.cast(1, dtype=DataType.Double)
    c70 = fd.ops.sub(c64, c68)
    c72 = fd.ops.cast(0, dtype=DataType.Double)
    c74 = fd.ops.ge(c70, c72)
    c76 = fd.ops.cast(0, dtype=DataType.Double)
    c78 = fd.ops.where(c74, c70, c76)
    c84 = fd.ops.reciprocal(c78)
    tv15 = fd.ops.mul(tv13, c84)
    tv19 = fd.ops.add(tv18, tv15)
    fd.add_output(tv19)
    fd.add_output(tv12)
    fd.add_output(tv7, tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(1984, dtype=torch.float32, device='cuda:0').as_strided((16, 64), (128, 1)),
    torch.randn(1984, dtype=torch.float32, device='cuda:0').as_strided((16, 64), (128, 1)),
    0.25,
]
fd.execute(inputs)
