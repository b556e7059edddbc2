# also interesting: nvfuser internal-assert: expr_evaluator.cpp:bindTensorDomain: RuntimeError: IterDomain bS?{N ex N} in TensorView T?_g_float[iS?{N}, bS?{N ex N}, bS?{N}, iS?{i?}] has expanded extent but input tensor has size N and stride N in dimension N
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[16, 1, 1, -1], contiguity=[True, None, None, True], dtype=DataType.Float, is_cpu=False)
    T10 = fd.ops.expand(T1, shape=[-1, 8, 1, -1])
    T11 = fd.ops.cummin(T10, dim=0)
    fd.add_output(T11)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((16, 1, 1, 16), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
