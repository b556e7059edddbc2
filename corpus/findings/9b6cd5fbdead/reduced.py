# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 4 --timeout 120 --max-examples 0 --minimize-time 90 --minimize-budget 150 --corpus findings --summary minimize.json
# property: the same failure (error `nvfuser user-check: ir/internal_nodes.cpp:evaluate: RuntimeError: Unexpected operator type log1p in T?`)
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging,scheduler_params
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.log1p(tv0)
    tv2 = fd.ops.gt(tv1, 1.0)
    tv3 = fd.ops.segment_set(tv2)
    fd.add_output(tv3)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
