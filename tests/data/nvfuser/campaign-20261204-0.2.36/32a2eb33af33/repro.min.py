# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser internal-assert: device_lower/analysis/predicate_elimination.cpp:setReductionInitValue: RuntimeError: Inconsistent setting of initialization value for t?. Prev: double(inf), New: __half(N)`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[10], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    tv1 = fd.ops.min(tv0, dims=[0], keepdim=True)
    tv2 = fd.ops.sum(tv0, dims=[0], keepdim=True)
    fd.add_output(tv2)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((10,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
