# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser internal-assert: device_lower/analysis/predicate_elimination.cpp:setReductionInitValue: RuntimeError: Inconsistent setting of initialization value for t?. Prev: __bfloat(N), New: __bfloat(N)`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.ops.set(tv0)
    tv2 = fd.ops.prod(tv1, dims=[0], keepdim=True)
    tv3 = fd.ops.sum(tv1, dims=[0], keepdim=True)
    fd.add_output(tv3)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1,), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
