# Minimized by fmin 0.1.0
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion
# finding: failure (nvfuser), bucket e74da05b4593: nvfuser error nvfuser internal-assert: scheduler/greedy.cpp:partitionFusion: RuntimeError: Fail to group the following tensors: T?; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: scheduler/greedy.cpp:partitionFusion: RuntimeError: Fail to group the following tensors: T?`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, 8], contiguity=[True, None], dtype=DataType.Int, is_cpu=False, stride_order=[0, 1])
    T1 = fd.define_tensor(shape=[1, 1, 5], contiguity=[None, None, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.ops.cumprod(T0, dim=1)
    T3 = fd.ops.abs(T2)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.randint(0, 10, (8,), dtype=torch.int64, device='cuda').as_strided((1, 8), (1, 1)),
    torch.testing.make_tensor((1, 1, 5), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
