# Minimized by fmin 0.1.0
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion
# finding: failure (nvfuser), bucket c49497ec8936: nvfuser error nvfuser internal-assert: type.h:primDataTypeSizeBit: RuntimeError: The actual type of D is only known at compile time.; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: type.h:primDataTypeSizeBit: RuntimeError: The actual type of D is only known at compile time.`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, 3, -1, 3], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1, tv2, tv3 = fd.ops.welford(tv0, dims=[0, 1])
    tv4 = fd.ops.pad(tv3, [0, 0, 2, 0])
    fd.add_output(tv4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((2, 3, 2, 3), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
