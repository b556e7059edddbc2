# Minimized by fmin 0.1.0
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion
# finding: failure (nvfuser), bucket 2bf5e32de7f0: nvfuser error nvfuser internal-assert: runtime/executor_utils.cpp:getOutputAliasToInputMap: RuntimeError: Kernel found with output to output aliasing, this is unsupported at this moment.; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: runtime/executor_utils.cpp:getOutputAliasToInputMap: RuntimeError: Kernel found with output to output aliasing, this is unsupported at this moment.`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Int32, is_cpu=False)
    tv1 = fd.ops.mul(tv0, 1)
    tv2 = fd.ops.segment_set(tv1)
    tv3 = fd.ops.cast(tv2, dtype=DataType.Double)
    fd.add_output(tv3)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
