import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[2, -1, 8], contiguity=[True, False, True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.define_tensor(shape=[14, 7, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.sum(T1, dims=[0, 1, 2, 3], keepdim=True)
    T3 = fd.ops.cast(T1, dtype=DataType.Int)
    T4 = fd.ops.sum(T1, dims=[0, 3], keepdim=False)
    fd.add_output(T4)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 9, 8), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((14, 7, 12, 15), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
