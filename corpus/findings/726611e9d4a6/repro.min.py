# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 3 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 120 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket 726611e9d4a6: nvfuser error nvfuser internal-assert: device_lower/validation.cpp:validateAllocationVectorizedId: RuntimeError: Vectorized dim for producer has to be from an inner most position. tv: T?, allocation domain: ID, vectorized id: ID, innermost id: ID; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: device_lower/validation.cpp:validateAllocationVectorizedId: RuntimeError: Vectorized dim for producer has to be from an inner most position. tv: T?, allocation domain: ID, vectorized id: ID, innermost id: ID`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, 2], contiguity=[True, True, True], dtype=DataType.Int32, is_cpu=False, stride_order=[0, 2, 1])
    tv1 = fd.ops.broadcast_in_dim(tv0, shape=[1, 1, 2, 2], broadcast_dims=[1, 2, 3])
    tv2 = fd.ops.min(tv0, dims=[0, 1, 2], keepdim=True)
    fd.add_output(tv2)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((1, 2, 2), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
