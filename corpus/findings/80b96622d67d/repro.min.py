# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser internal-assert: device_lower/analysis/sync_information.cpp:SyncMap: RuntimeError: Inconsistent parallelization found between T? (T?) and T? (T?). Producer is required to be in Global Memory based on parallelization strategy. RAW flags: (P)`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion
# finding: failure (nvfuser), bucket 80b96622d67d: nvfuser error nvfuser internal-assert: device_lower/analysis/sync_information.cpp:SyncMap: RuntimeError: Inconsistent parallelization found between T? (T?) and T? (T?). Producer is required to be in Global Memory based on parallelization strategy. RAW flags: (P)
# run it: python repro.min.py (it sets the nvFuser options it needs itself)
# running it shows: error `nvfuser internal-assert: device_lower/analysis/sync_information.cpp:SyncMap: RuntimeError: Inconsistent parallelization found between T? (T?) and T? (T?). Producer is required to be in Global Memory based on parallelization strategy. RAW flags: (P)`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.broadcast_in_dim(tv0, shape=[4, 3, 10, 3], broadcast_dims=[0, 1, 2])
    tv2, tv3 = fd.ops.var_mean(tv1, dims=[0, 2, 3], correction=1, keepdim=False)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((4, 3, 10), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
