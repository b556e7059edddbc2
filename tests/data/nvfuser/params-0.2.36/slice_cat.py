import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.ops.cast(tv0, dtype=DataType.Float)
    tv2 = fd.ops.exp(tv1)
    tv3 = fd.ops.slice(tv2, start_indices=[0, 0], end_indices=[128, 32], strides=[1, 1], manual_normalization=True)
    tv4 = fd.ops.slice(tv2, start_indices=[0, 32], end_indices=[128, 64], strides=[1, 1], manual_normalization=True)
    tv5 = fd.ops.neg(tv4)
    tv6 = fd.ops.cat([tv5, tv3], dim=-1, manual_padding=True)
    tv7 = fd.ops.mul(tv6, tv2)
    tv8 = fd.ops.cast(tv7, dtype=DataType.BFloat16)
    fd.add_output(tv8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((128, 64), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
