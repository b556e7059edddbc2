import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[0, 1])
    T1 = fd.define_tensor(shape=[11, -1, 16, 3], contiguity=[True, False, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 3, 1, 0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    T3 = fd.ops.sum(T1, dims=[0, 1, 2], keepdim=True)
    T4 = fd.ops.relu(T1)
    T5 = fd.ops.log10(T4)
    fd.add_output(T5)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(120, dtype=torch.float32, device='cuda').as_strided((15, 8), (1, 15)),
    torch.randn(2640, dtype=torch.bfloat16, device='cuda').as_strided((11, 5, 16, 3), (48, 528, 3, 1)),
    torch.testing.make_tensor((15, 8), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
