# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 8 --timeout 60 --max-examples 0 --minimize-time 95 --minimize-budget 100 --corpus findings -q
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket e1b01a04e9bf: nvfuser error nvfuser internal-assert: runtime/allocations.cpp:inferShapeAndContiguousStride: RuntimeError: Could not launch kernel as program could not infer V (V) for the buffer T?; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: runtime/allocations.cpp:inferShapeAndContiguousStride: RuntimeError: Could not launch kernel as program could not infer V (V) for the buffer T?`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    tv2 = fd.ops.cast(tv0, dtype=DataType.BFloat16)
    tv3 = fd.ops.take_along_axis(tv2, tv1, dim=1)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((1, 1), dtype=torch.int64, device='cuda:0'),
]
fd.execute(inputs)
