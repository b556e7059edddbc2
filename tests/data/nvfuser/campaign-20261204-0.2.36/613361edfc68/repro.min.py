# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser internal-assert: scheduler/greedy.cpp:partitionFusion: RuntimeError: Fail to group the following tensors: T?_g___half[iS?{N}], T?_g___half[iS?{N}]`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[12], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[12], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[12], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T3 = fd.ops.cumsum(T0, dim=0)
    T4 = fd.ops.clamp(T3, -1.0, 1.0)
    T5 = fd.ops.addcmul(T3, T4, T3, 0.5)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12,), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((12,), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((12,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
