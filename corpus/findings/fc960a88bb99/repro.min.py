# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser internal-assert: device_lower/pass/expr_sort.cpp:interIterUpdate: RuntimeError: Couldn't succcessfully sort out the fusion expressions. There are remaining connections of the hierarchical segmentation which should have been flattened to a single ordered group, or disjoint ordered`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion
# finding: failure (nvfuser), bucket fc960a88bb99: nvfuser error nvfuser internal-assert: device_lower/pass/expr_sort.cpp:interIterUpdate: RuntimeError: Couldn't succcessfully sort out the fusion expressions. There are remaining connections of the hierarchical segmentation which should have been flattened to a single ordered group, or disjoint order
# run it: python repro.min.py (it sets the nvFuser options it needs itself)
# running it shows: error `nvfuser internal-assert: device_lower/pass/expr_sort.cpp:interIterUpdate: RuntimeError: Couldn't succcessfully sort out the fusion expressions. There are remaining connections of the hierarchical segmentation which should have been flattened to a single ordered group, or disjoint ordered`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, 3, 2], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv2 = fd.ops.cat([tv0, tv1], dim=1)
    tv3 = fd.ops.lerp(tv2, 2.0, 1.0)
    tv4 = fd.ops.cumprod(tv3, dim=0)
    tv5 = fd.ops.logical_and(tv4, tv3)
    fd.add_output(tv5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((2, 3, 2), dtype=torch.bfloat16, device='cuda'),torch.testing.make_tensor((2, 3, 2), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
