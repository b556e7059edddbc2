import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 1, 12], contiguity=[True, None, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.min(T1, dims=[0], keepdim=False)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 8, 12), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((2, 1, 12), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((2, 8, 12), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
