# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 8 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 220 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging,scheduler_params
# finding: failure (nvfuser), bucket 4fc828179ec5: nvfuser error nvfuser internal-assert: id_model/indexing_traversal.cpp:getExprsBetweenForResize: RuntimeError: Indexing path for resize not found: ID; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: id_model/indexing_traversal.cpp:getExprsBetweenForResize: RuntimeError: Indexing path for resize not found: ID`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def check_nostrides(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.slice(tv0, start_indices=[1, 1], end_indices=[4, 4])
    tv2 = fd.ops.cat([tv1, tv1], dim=1)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    check_nostrides(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.randn(5, dtype=torch.float32, device='cuda').as_strided((5, 5), (1, 0)),
]
fd.execute(inputs)
