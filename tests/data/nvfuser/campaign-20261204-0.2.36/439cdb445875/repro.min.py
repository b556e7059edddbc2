# Minimized by fmin 0.1.0
# property: the outcome depends on the inputs' memory layout
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[8, 4], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    tv1 = fd.ops.max(tv0, dims=[0, 1], keepdim=True)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 4), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
