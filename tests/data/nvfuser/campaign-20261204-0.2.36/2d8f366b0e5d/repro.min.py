# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser internal-assert: scheduler/greedy.cpp:partitionFusion: RuntimeError: Fail to group the following tensors: T?_g_float[iS?{i?}, iS?{N}, iS?{i?}]`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[5, -1, -1], contiguity=[True, True, True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 3, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.cumsum(T0, dim=0)
    T3 = fd.ops.neg(T0)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((5, 3, 14), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((5, 3, 14), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
