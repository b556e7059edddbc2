# expect: ok
# Written on a 2-GPU machine: every input on cuda:1, in each spelling scripts use.
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.exp(tv0)
    tv2 = fd.ops.sum(tv1, dims=[1], keepdim=False, dtype=DataType.Float)
    tv3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv4 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv5 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv6 = fd.ops.add(tv1, tv3)
    tv7 = fd.ops.add(tv4, tv5)
    tv8 = fd.ops.mul(tv6, tv7)
    fd.add_output(tv2)
    fd.add_output(tv8)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 32), dtype=torch.float32, device='cuda:1'),
    torch.randn((8, 32), dtype=torch.float32, device=torch.device('cuda', 1)),
    torch.randn((8, 32), dtype=torch.float32).cuda(1),
    torch.randn((8, 32), dtype=torch.float32).to('cuda:1'),
]
fd.execute(inputs, device='cuda:1')
