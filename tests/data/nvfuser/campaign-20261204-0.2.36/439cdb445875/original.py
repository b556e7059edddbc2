import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[8, 9], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[16], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Int, is_cpu=False)
    T3 = fd.ops.max(T0, dims=[0, 1], keepdim=True)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 9), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((16,), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((8, 1), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
