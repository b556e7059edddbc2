# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser internal-assert: scheduler/greedy.cpp:partitionFusion: RuntimeError: Fail to group the following tensors: T?_g_float[iS?{i?}, bS?{N}]`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[13, 4], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, 4], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.cumsum(T0, dim=0)
    T4 = fd.ops.logical_and(T1, T3)
    T5 = fd.ops.neg(T0)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((13, 4), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((13, 4), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((13, 1), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
