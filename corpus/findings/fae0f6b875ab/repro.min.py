# Minimized by fmin 0.1.0
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion
# finding: failure (nvfuser), bucket fae0f6b875ab: nvfuser error nvfuser internal-assert: scheduler/greedy.cpp:schedule: RuntimeError: Grid sync not expected: T?, (P); run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: scheduler/greedy.cpp:schedule: RuntimeError: Grid sync not expected: T?, (P)`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, 3, 2], contiguity=[True, True, True], dtype=DataType.Int32, is_cpu=False)
    tv1 = fd.define_tensor(shape=[1, -1, -1, -1], contiguity=[None, True, True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[3, 2, 1, 0])
    tv2 = fd.ops.broadcast_in_dim(tv0, shape=[1, 2, 3, 2], broadcast_dims=[1, 2, 3])
    tv3 = fd.ops.where(tv1, tv2, 1)
    tv4 = fd.ops.max(tv3, dims=[0], keepdim=False)
    tv5 = fd.ops.cumsum(tv4, dim=0)
    tv6 = fd.ops.prod(tv5, dims=[0], keepdim=False)
    tv7 = fd.ops.cummin(tv2, dim=1)
    fd.add_output(tv7)
    fd.add_output(tv6)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((2, 3, 2), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((1, 2, 3, 2), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
