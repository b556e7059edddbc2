# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv11 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv7 = fd.ops.slice(tv11, start_indices=[0, 0, 2], end_indices=[4, 4, 8], strides=[1, 1, 1], manual_normalization=True)
    tv8 = fd.ops.pad(tv7, pad_widths=[1, 1], value=0.00000)
    tv9 = fd.ops.cat([tv8, tv11], dim=2)
    tv10 = fd.ops.stride_order(tv9, stride_order=[0, 1, 2])
    tv15 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    fd.add_output(tv10)
    fd.add_output(tv15, tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 32), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((4, 4, 8), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((4, 32), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
