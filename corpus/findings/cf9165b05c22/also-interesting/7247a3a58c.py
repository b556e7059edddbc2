# also interesting: nvfuser internal-assert: expr_evaluator.cpp:bindTensorDomain: RuntimeError: IterDomain bS?{N ex N} in TensorView T?_g___bfloat[iS?{N}, bS?{N}, bS?{N ex N}, iS?{N}] has expanded extent but input tensor has size N and stride N in dimension N
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 9], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    T3 = fd.ops.broadcast_in_dim(T0, shape=[2, 1, 5, 9], broadcast_dims=[0, 3])
    T7 = fd.ops.cumsum(T3, dim=3)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 9), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
