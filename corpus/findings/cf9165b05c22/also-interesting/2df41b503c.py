# also interesting: nvfuser internal-assert: expr_evaluator.cpp:bindTensorDomain: RuntimeError: IterDomain bS?{N ex i?} in input N, TensorView T?_g___bfloat[iS?{N}, bS?{N}, bS?{N ex i?}, iS?{N}] has expanded extent but input tensor has size N and stride N in dimension N
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, 1, -1, -1], contiguity=[True, None, None, True], dtype=DataType.BFloat16, is_cpu=False)
    T7 = fd.ops.cumsum(tv0, dim=3)
    T8 = fd.ops.broadcast_in_dim(T7, shape=[2, 1, 5, 9], broadcast_dims=[0, 1, 2, 3])
    T10 = fd.ops.pow(T8, T7)
    fd.add_output(T10)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(18, dtype=torch.bfloat16, device='cuda').as_strided((2, 1, 5, 9), (9, 9, 0, 1)),
]
fd.execute(inputs)
