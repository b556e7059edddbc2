# Minimized by fmin 0.1.0
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion
# finding: failure (nvfuser), bucket fa6df345df98: nvfuser error nvfuser internal-assert: ops/arith.cpp:scan: RuntimeError: Closed-form scan of expanded dimension is not yet implemented; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: ops/arith.cpp:scan: RuntimeError: Closed-form scan of expanded dimension is not yet implemented`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.Int32, is_cpu=False)
    tv1 = fd.ops.sum(tv0, dims=[1], keepdim=False)
    tv2 = fd.ops.cummax(tv1, dim=0)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.randint(0, 10, (1,), dtype=torch.int32, device='cuda').as_strided((2, 1), (0, 1)),
]
fd.execute(inputs)
