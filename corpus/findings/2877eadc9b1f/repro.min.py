# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 4 --timeout 120 --max-examples 0 --minimize-time 90 --minimize-budget 150 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket 2877eadc9b1f: nvfuser error nvfuser internal-assert: scheduler/vectorize_helper.cpp:ContiguousInnerDimensionsMapper: RuntimeError: Unexpected reduction domain given to ContiguousInnerDimensionsMapper; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: scheduler/vectorize_helper.cpp:ContiguousInnerDimensionsMapper: RuntimeError: Unexpected reduction domain given to ContiguousInnerDimensionsMapper`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id1(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float8_e4m3fn, is_cpu=False, stride_order=[0, 1])
    tv2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float8_e4m3fn, is_cpu=False, stride_order=[1, 0])
    tv3, _, _ = fd.ops.scaled_mm(tv2, tv1, tv0, tv0, None, None, None, dtype=DataType.BFloat16, output_block_scale_size=0, output_block_scale_dtype=DataType.BFloat16, output_gamma=False)
    tv4 = fd.ops.cast(tv3, dtype=DataType.Float)
    fd.add_output(tv4)
    fd.add_output(tv3)

with FusionDefinition() as fd:
    nvfuser_fusion_id1(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((), dtype=torch.float32, device='cuda:0', low=0.5, high=2.0),
    torch.randn(768, dtype=torch.float32, device='cuda:0').to(torch.float8_e4m3fn).as_strided((16, 48), (1, 16)),
    torch.testing.make_tensor((16, 16), dtype=torch.float8_e4m3fn, device='cuda:0'),
]
fd.execute(inputs)
