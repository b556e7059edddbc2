# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 4 --timeout 120 --max-examples 0 --minimize-time 90 --minimize-budget 150 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging,scheduler_params
# finding: failure (fmin), bucket d50635d251a7: nvfuser error nvfuser validation: tensor_metadata.cpp:validateAllocationSizesAndStrides: RuntimeError: Found N vs N. Expecting an expanded dimension on dimension N; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser validation: tensor_metadata.cpp:validateAllocationSizesAndStrides: RuntimeError: Found N vs N. Expecting an expanded dimension on dimension N`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[None], dtype=DataType.Int, is_cpu=False, stride_order=[0])
    tv1 = fd.ops.neg(tv0)
    tv2 = fd.ops.segment_set(tv1)
    fd.add_output(tv2)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.randint(0, 10, (1,), dtype=torch.int64, device='cuda').as_strided((3,), (0,)),
]
fd.execute(inputs)
