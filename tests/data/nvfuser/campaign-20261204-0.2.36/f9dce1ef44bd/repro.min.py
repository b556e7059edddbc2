# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser internal-assert: device_lower/analysis/predicate_elimination.cpp:setReductionInitValue: RuntimeError: Inconsistent setting of initialization value for t?. Prev: double(inf), New: float(N)`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.ops.min(tv0, dims=[0], keepdim=True)
    tv3 = fd.ops.exp(tv2)
    tv4 = fd.ops.sum(tv0, dims=[0], keepdim=False)
    fd.add_output(tv1)
    fd.add_output(tv4)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 2), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((2, 2), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
