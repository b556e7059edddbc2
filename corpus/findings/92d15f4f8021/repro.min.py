# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 4 --timeout 120 --max-examples 0 --minimize-time 90 --minimize-budget 150 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging,scheduler_params
# finding: failure (nvfuser), bucket 92d15f4f8021: nvfuser error nvfuser user-check: fusion.cpp:addOutputInternal: RuntimeError: Non-TensorView outputs are not supported at this point: V; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser user-check: fusion.cpp:addOutputInternal: RuntimeError: Non-TensorView outputs are not supported at this point: V`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    c0 = fd.define_scalar(None, dtype=DataType.Int)
    c1 = fd.ops.cast(c0, dtype=DataType.Double)
    fd.add_output(c1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    512,
]
fd.execute(inputs)
