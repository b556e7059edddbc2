# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    tv4 = fd.ops.linear(tv0, tv1, bias=tv2)
    tv5 = fd.ops.cast(tv4, dtype=DataType.Float)
    tv6 = fd.ops.silu(tv5)
    tv7 = fd.ops.cast(tv6, dtype=DataType.BFloat16)
    tv8 = fd.ops.linear(tv7, tv3)
    tv10 = fd.ops.permute(tv1, dims=[1, 0])
    c0 = fd.ops.size(tv8, dim=0)
    c1 = fd.ops.size(tv8, dim=1)
    c46 = fd.ops.mul(c0, c1)
    tv9 = fd.ops.reshape(tv8, new_shape=[c46, 64])
    tv11 = fd.ops.matmul(tv9, tv10)
    fd.add_output(tv8)
    fd.add_output(tv11)
    fd.add_output(tv8, tv0)
    fd.add_output(tv10, tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 8, 64), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((128, 64), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((64, 128), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((128,), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
