# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser validation: expr_evaluator.cpp:bindTensorDomain: RuntimeError: IterDomain ID in TensorView T? has expanded extent but input tensor has size N and stride N in dimension N`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion
# finding: failure (nvfuser), bucket d63636f6f81a: nvfuser error nvfuser validation: expr_evaluator.cpp:bindTensorDomain: RuntimeError: IterDomain ID in TensorView T? has expanded extent but input tensor has size N and stride N in dimension N
# run it: python repro.min.py (it sets the nvFuser options it needs itself)
# running it shows: error `nvfuser validation: expr_evaluator.cpp:bindTensorDomain: RuntimeError: IterDomain ID in TensorView T? has expanded extent but input tensor has size N and stride N in dimension N`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, 1, 1, -1], contiguity=[True, None, None, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.expand(tv0, shape=[-1, 2, 3, -1])
    tv2 = fd.ops.cummin(tv1, dim=0)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((2, 1, 1, 2), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
