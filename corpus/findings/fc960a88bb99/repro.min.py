# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 5 --time 240 --seed 20261206 --timeout 120 --minimize-time 30 --minimize-budget 90 -q --corpus generative --summary gen.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket fc960a88bb99: nvfuser error nvfuser internal-assert: device_lower/pass/expr_sort.cpp:interIterUpdate: RuntimeError: Couldn't succcessfully sort out the fusion expressions. There are remaining connections of the hierarchical segmentation which should have been flattened to a single ordered group, or disjoint order; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: device_lower/pass/expr_sort.cpp:interIterUpdate: RuntimeError: Couldn't succcessfully sort out the fusion expressions. There are remaining connections of the hierarchical segmentation which should have been flattened to a single ordered group, or disjoint ordered`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.broadcast_in_dim(tv0, shape=[3, 1, 1], broadcast_dims=[0, 1])
    tv2 = fd.ops.cumsum(tv1, dim=1)
    tv3 = fd.ops.eq(tv1, tv2)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((3, 1), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
