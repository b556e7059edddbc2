# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser user-check: ops/utils.cpp:getMaximumValue: RuntimeError: Could not generate a max op for tensor with type: nvfuser_index_t`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, 3], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1, tv2, tv3 = fd.ops.welford(tv0, dims=[0])
    tv4 = fd.ops.min(tv3, dims=[0], keepdim=True)
    fd.add_output(tv4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 3), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
