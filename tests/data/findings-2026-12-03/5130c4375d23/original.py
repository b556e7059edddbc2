import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 12], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[7, 12], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 2, -1], contiguity=[True, True, True], dtype=DataType.Double, is_cpu=False, stride_order=[2, 0, 1])
    T3 = fd.ops.reshape(T1, new_shape=[84])
    T4 = fd.ops.permute(T2, dims=[1, 0, 2])
    T5 = fd.ops.permute(T4, dims=[0, 1, 2])
    fd.add_output(T5)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((7, 12), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((7, 12), dtype=torch.bfloat16, device='cuda'),
    torch.randn(384, dtype=torch.float64, device='cuda').as_strided((12, 2, 16), (32, 1, 2)),
]
fd.execute(inputs)
