import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16, is_cpu=False)
    tv3 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16, is_cpu=False)
    tv4 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=True, dtype=DataType.BFloat16, is_cpu=False)
    tv5 = fd.define_tensor(shape=[-1, -1, -1], contiguity=True, dtype=DataType.Float, is_cpu=False)
    tv6 = fd.define_tensor(shape=[2], dtype=DataType.UInt64, is_cpu=False)
    tv7 = fd.define_tensor(shape=[], dtype=DataType.UInt64, is_cpu=False)
    tv8, tv9, tv10 = fd.ops.sdpfa_bwd(tv0, tv1, tv2, tv3, tv4, tv5, None, None, tv6, tv7, None)
    fd.add_output(tv8)
    fd.add_output(tv9)
    fd.add_output(tv10)
with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [
    torch.testing.make_tensor((4, 8, 16, 8), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((4, 8, 16, 8), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((4, 8, 16, 8), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((4, 8, 16, 8), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((4, 8, 16, 8), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((4, 8, 16), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((2,), dtype=torch.uint64, device='cuda'),
    torch.testing.make_tensor((), dtype=torch.uint64, device='cuda'),
]
fd.execute(inputs)
