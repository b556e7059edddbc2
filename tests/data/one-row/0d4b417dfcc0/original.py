# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.ops.cumsum(tv0, dim=1)
    tv2 = fd.ops.argsort(tv0, dim=1, descending=True)
    c8 = fd.define_scalar(4, dtype=DataType.Int)
    tv3, tv4 = fd.ops.topk(tv0, c8, dim=1, sorted=True)
    tv8 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv7 = fd.ops.max(tv1, dims=[1])
    fd.add_output(tv1)
    fd.add_output(tv2)
    fd.add_output(tv3)
    fd.add_output(tv4)
    fd.add_output(tv8)
    fd.add_output(tv7)
    fd.add_output(tv1, tv8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 32), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((8, 32), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
