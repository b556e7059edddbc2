# Minimized by fmin 0.1.0
# confirmed on: NVIDIA H200 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion
# finding: failure (nvfuser), bucket 12713443cbff: nvfuser error nvfuser user-check: ir/internal_nodes.cpp:checkConcretization: RuntimeError: Squeezed IterDomain ID must concretize to IterType::Broadcast but found ID; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser user-check: ir/internal_nodes.cpp:checkConcretization: RuntimeError: Squeezed IterDomain ID must concretize to IterType::Broadcast but found ID`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, 1, 3], contiguity=[True, True, None, True], dtype=DataType.Int, is_cpu=False)
    tv1 = fd.ops.min(tv0, dims=[0], keepdim=False)
    tv2 = fd.ops.prod(tv1, dims=[0, 1], keepdim=True)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((3, 1, 1, 3), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
