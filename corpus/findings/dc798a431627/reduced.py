# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 3 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 120 --corpus findings --summary minimize.json
# property: the same failure (error `nvfuser internal-assert: bfs.h:traverse: RuntimeError: BFS traversal could not visit some nodes: ID (from: ID), visited: (ID)`)
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Double, is_cpu=False, stride_order=[3, 2, 1, 0])
    tv1 = fd.ops.slice(tv0, start_indices=[1, 12, 1, 1], end_indices=[2, 13, 2, 4])
    tv2 = fd.ops.cast(tv1, dtype=DataType.Float)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 14, 2, 4), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
