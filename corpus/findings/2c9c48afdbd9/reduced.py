# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 8 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 220 --corpus findings --summary minimize.json
# property: outputs differ from reference in values beyond tolerance
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging,scheduler_params
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.triu(tv0, -1)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [
    torch.randn(1, dtype=torch.float32, device='cuda').as_strided((4, 1), (0, 1)),
]
fd.execute(inputs)
