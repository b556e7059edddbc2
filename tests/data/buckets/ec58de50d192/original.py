import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 10, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 10, 11], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.relu(T2)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 10, 3), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((10,), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((9, 10, 11), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
