# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 8 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 220 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging,scheduler_params
# finding: failure (nvfuser), bucket 20c1e68b9f7e: nvfuser error nvfuser internal-assert: device_lower/analysis/trivial_broadcast.cpp:dispatch: RuntimeError: Broadcast origin info not found for producer broadcast domain: ID of T?; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: device_lower/analysis/trivial_broadcast.cpp:dispatch: RuntimeError: Broadcast origin info not found for producer broadcast domain: ID of T?`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(sizes=[2, 0, 3], strides=[0, 0, 0], dtype=DataType.Float, static_sizes=False, is_cpu=False)
    c0 = fd.define_scalar(1.0, dtype=DataType.Double)
    tv1 = fd.ops.pad(tv0, [0, 0, 1, 1, 1, 0], c0)
    tv2 = fd.ops.cast(tv1, dtype=DataType.BFloat16)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    fusion_func(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.randn(0, dtype=torch.float32, device='cuda').as_strided((1, 0, 1), (0, 0, 1)),
]
fd.execute(inputs)
