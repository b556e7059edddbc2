# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 8 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 220 --corpus findings --summary minimize.json
# property: outputs differ from reference in shape beyond tolerance
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging,scheduler_params
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.Float, is_cpu=False)
    tv1, tv2 = fd.ops.var_mean(tv0, dims=[1], correction=1, keepdim=True)
    tv3 = fd.ops.min(tv2, dims=[0], keepdim=False)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(2, dtype=torch.float32, device='cuda').as_strided((3, 2), (0, 1)),
]
fd.execute(inputs)
