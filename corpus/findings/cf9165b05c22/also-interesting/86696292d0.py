# also interesting: nvfuser internal-assert: expr_evaluator.cpp:bindTensorDomain: RuntimeError: IterDomain bS?{N ex N} in input N, TensorView T?_g_float[iS?{N}, bS?{N}, bS?{N ex N}, iS?{N}] has expanded extent but input tensor has size N and stride N in dimension N
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 2], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.broadcast_in_dim(T0, shape=[2, 1, 2, 2], broadcast_dims=[0, 3])
    T7 = fd.ops.cumsum(T3, dim=3)
    T8 = fd.ops.broadcast_in_dim(T7, shape=[2, 1, 2, 2], broadcast_dims=[0, 1, 2, 3])
    T10 = fd.ops.pow(T8, T7)
    fd.add_output(T10)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 2), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
