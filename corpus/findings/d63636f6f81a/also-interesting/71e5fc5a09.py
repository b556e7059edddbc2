# also interesting: nvfuser internal-assert: expr_evaluator.cpp:bindTensorDomain: RuntimeError: IterDomain bS?{N ex i?} in TensorView T?_g_float[iS?{i?}, bS?{N ex i?}, bS?{N ex i?}, iS?{i?}] has expanded extent but input tensor has size N and stride N in dimension N
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, None, None, True], dtype=DataType.Float, is_cpu=False)
    T11 = fd.ops.cummin(tv0, dim=0)
    fd.add_output(T11)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(256, dtype=torch.float32, device='cuda').as_strided((16, 8, 6, 16), (16, 0, 0, 1)),
]
fd.execute(inputs)
