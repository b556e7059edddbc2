# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 8 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 220 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging,scheduler_params
# finding: failure (nvfuser), bucket 80b96622d67d: nvfuser error nvfuser internal-assert: device_lower/analysis/sync_information.cpp:SyncMap: RuntimeError: Inconsistent parallelization found between T? (T?) and T? (T?). Producer is required to be in Global[, Shared or Tensor] Memory based on parallelization strategy. RAW flags: (P); run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: device_lower/analysis/sync_information.cpp:SyncMap: RuntimeError: Inconsistent parallelization found between T? (T?) and T? (T?). Producer is required to be in Global[, Shared or Tensor] Memory based on parallelization strategy. RAW flags: (P)`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, None], dtype=DataType.Float, is_cpu=False)
    tv1, tv2 = fd.ops.var_mean(tv0, [0, 1, 2], 0)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    fusion_func(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.randn(4, dtype=torch.float32, device='cuda').as_strided((2, 2, 2), (2, 1, 0)),
]
fd.execute(inputs)
