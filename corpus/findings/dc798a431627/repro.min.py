# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 3 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 120 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket dc798a431627: nvfuser error nvfuser internal-assert: bfs.h:traverse: RuntimeError: BFS traversal could not visit some nodes: ID (from: ID), visited: (ID); run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: bfs.h:traverse: RuntimeError: BFS traversal could not visit some nodes: ID (from: ID), visited: (ID)`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Double, is_cpu=False, stride_order=[3, 2, 1, 0])
    tv1 = fd.ops.slice(tv0, start_indices=[1, 12, 1, 1], end_indices=[2, 13, 2, 4])
    tv2 = fd.ops.cast(tv1, dtype=DataType.Float)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((3, 14, 2, 4), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
