# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 4 --timeout 120 --max-examples 0 --minimize-time 90 --minimize-budget 150 --corpus findings --summary minimize.json
# property: the same failure (error `nvfuser user-check: fusion.cpp:addOutputInternal: RuntimeError: Non-TensorView outputs are not supported at this point: V`)
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging,scheduler_params
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    c0 = fd.define_scalar(None, dtype=DataType.Int)
    c1 = fd.ops.cast(c0, dtype=DataType.Double)
    fd.add_output(c1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    512,
]
fd.execute(inputs)
