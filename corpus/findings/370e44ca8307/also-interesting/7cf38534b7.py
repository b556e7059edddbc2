# also interesting: nvfuser internal-assert: expr_evaluator.cpp:bindTensorDomain: RuntimeError: IterDomain bS?{N ex i?} in TensorView T?_g___bfloat[iS?{i?}, iS?{i?}, bS?{N ex i?}, rS?{i?}] has expanded extent but input tensor has size N and stride N in dimension N
# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    tv3 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.BFloat16, is_cpu=False)
    tv4 = fd.ops.linear(tv0, tv1, bias=tv2)
    tv5 = fd.ops.cast(tv4, dtype=DataType.Float)
    tv6 = fd.ops.silu(tv5)
    tv7 = fd.ops.cast(tv6, dtype=DataType.BFloat16)
    tv8 = fd.ops.linear(tv7, tv3)
    fd.add_output(tv8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 8, 64), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((128, 64), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((128,), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn(128, dtype=torch.bfloat16, device='cuda:0').as_strided((64, 128), (0, 1)),
]
fd.execute(inputs)
