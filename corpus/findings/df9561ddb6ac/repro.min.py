# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 3 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 120 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket df9561ddb6ac: nvfuser error nvfuser internal-assert: fusion.cpp:registerExactMapping: RuntimeError: Invalid domains to map: ID; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: fusion.cpp:registerExactMapping: RuntimeError: Invalid domains to map: ID`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id2(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    tv1 = fd.define_tensor(shape=[1, 1, -1], contiguity=[None, None, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    tv3 = fd.ops.mul(tv0, tv1)
    tv4 = fd.ops.cast(tv3, dtype=DataType.BFloat16)
    tv5 = fd.ops.cat([tv4, tv2], dim=-1, manual_padding=False)
    fd.add_output(tv5)

with FusionDefinition() as fd:
    nvfuser_fusion_id2(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((1, 1, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((1, 1, 1), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
