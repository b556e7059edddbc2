# Minimized by fmin 0.1.0
# property: outputs differ from reference in shape beyond tolerance
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, None, True], dtype=DataType.Int32, is_cpu=False)
    tv1 = fd.ops.max(tv0, dims=[2], keepdim=False)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (2,), dtype=torch.int32, device='cuda').as_strided((2, 2, 1), (1, 0, 1)),
]
fd.execute(inputs)
