# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 4 --timeout 120 --max-examples 0 --minimize-time 90 --minimize-budget 150 --corpus findings --summary minimize.json
# property: the same failure (error `nvfuser internal-assert: ops/alias.cpp:cat: RuntimeError: Unsupported IterDomain to concatenate: ID`)
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id6(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[1, 0])
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    tv2 = fd.ops.gather(tv1, tv0, dim=1)
    tv3 = fd.ops.cat([tv2, tv2], dim=1)
    fd.add_output(tv3)

with FusionDefinition() as fd:
    nvfuser_fusion_id6(fd)

inputs = [
    torch.testing.make_tensor((1, 1), dtype=torch.int64, device='cuda:0'),
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
