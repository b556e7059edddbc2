# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser internal-assert: fusion_segmenter.cpp:revertPrivatizedOps: RuntimeError: Multiple use of replicated upcast tensor found: T?_g_double[rS?{N}]`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.cast(tv0, dtype=DataType.Double)
    tv2, tv3 = fd.ops.var_mean(tv1, dims=[0], correction=0, keepdim=True)
    tv4 = fd.ops.max(tv1, dims=[0], keepdim=True)
    fd.add_output(tv4)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
