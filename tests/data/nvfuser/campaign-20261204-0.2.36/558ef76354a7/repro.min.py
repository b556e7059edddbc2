# Minimized by fmin 0.1.0
# property: outputs differ from reference in shape beyond tolerance
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, -1, 3], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.cat([tv0, tv0], dim=2)
    tv2 = fd.ops.gt(tv1, 0.0)
    fd.add_output(tv1)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 3, 3), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
