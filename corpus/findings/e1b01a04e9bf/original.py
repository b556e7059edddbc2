# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, False], dtype=DataType.Float, is_cpu=False)
    M0 = fd.ops.cast(tv0, dtype=DataType.BFloat16)
    tv2 = fd.ops.argsort(M0, dim=1, descending=True)
    tv5 = fd.ops.take_along_axis(M0, tv2, dim=1)
    fd.add_output(tv5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(480, dtype=torch.float32, device='cuda:0').as_strided((8, 32), (64, 1)),
]
fd.execute(inputs)
