# also interesting: nvfuser internal-assert: expr_evaluator.cpp:bindTensorDomain: RuntimeError: IterDomain bS?{N ex i?} in TensorView T?_g_int64_t[iS?{i?}, bS?{N}, bS?{N ex i?}] has expanded extent but input tensor has size N and stride N in dimension N
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv1 = fd.define_tensor(shape=[-1, 1, -1], contiguity=[True, None, None], dtype=DataType.Int, is_cpu=False)
    T13 = fd.ops.cummax(tv1, dim=0)
    fd.add_output(T13)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (4,), dtype=torch.int64, device='cuda').as_strided((4, 1, 7), (1, 1, 0)),
]
fd.execute(inputs)
