# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 4 --timeout 120 --max-examples 0 --minimize-time 90 --minimize-budget 150 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging,scheduler_params
# finding: failure (nvfuser), bucket 9b6cd5fbdead: nvfuser error nvfuser user-check: ir/internal_nodes.cpp:evaluate: RuntimeError: Unexpected operator type log1p in T?; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser user-check: ir/internal_nodes.cpp:evaluate: RuntimeError: Unexpected operator type log1p in T?`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
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

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
