# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 4 --timeout 120 --max-examples 0 --minimize-time 90 --minimize-budget 150 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket 1d9b025f01de: nvfuser error nvfuser internal-assert: ir/internal_nodes.cpp:RepeatOp: RuntimeError: an assertion without a message failed; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: ir/internal_nodes.cpp:RepeatOp: RuntimeError: an assertion without a message failed`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.cat([tv0, tv0], dim=1)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.randn(2, dtype=torch.float32, device='cuda:0').as_strided((2, 2), (1, 0)),
]
fd.execute(inputs)
