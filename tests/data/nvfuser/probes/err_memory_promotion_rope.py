import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.ops.cast(tv0, dtype=DataType.Float)
    tv2 = fd.ops.mul(tv1, 2.0)
    tv3 = fd.ops.slice(tv2, start_indices=[0, 0, 0], end_indices=[4, 64, 4], manual_normalization=True)
    tv4 = fd.ops.slice(tv2, start_indices=[0, 0, 4], end_indices=[4, 64, 8], manual_normalization=True)
    tv5 = fd.ops.neg(tv4)
    tv6 = fd.ops.cat([tv5, tv3], dim=-1, manual_padding=True)
    tv7 = fd.ops.slice(tv2, start_indices=[0, 0, 0], end_indices=[4, 64, 8], manual_normalization=True)
    tv8 = fd.ops.add(tv6, tv7)
    tv9 = fd.ops.slice(tv2, start_indices=[0, 0, 8], end_indices=[4, 64, 32], manual_normalization=True)
    tv10 = fd.ops.cat([tv8, tv9], dim=-1, manual_padding=True)
    tv11 = fd.ops.cast(tv10, dtype=DataType.BFloat16)
    fd.add_output(tv11)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 64, 32), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs, _enable_options=["memory_promotion"])
