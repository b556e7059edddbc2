import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16, is_cpu=False)
    tv3 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16, is_cpu=False)
    tv4, tv5, tv6, tv7 = fd.ops.sdpfa_fwd(tv0, tv1, tv2, dropout_p=None, is_causal=None, scale=None)
    tv8, tv9, tv10 = fd.ops.sdpfa_bwd(tv3, tv0, tv1, tv2, tv4, tv5, None, None, tv6, tv7, None)
    M0 = fd.ops.cast(tv8, dtype=DataType.BFloat16)
    fd.add_output(tv4)
    fd.add_output(M0)
    fd.add_output(tv9)
    fd.add_output(tv10)
with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [
    torch.testing.make_tensor((4, 8, 16, 8), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((4, 8, 16, 8), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((4, 8, 16, 8), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((4, 8, 16, 8), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
