# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser input-mismatch: tensor_metadata.cpp:validateAllocationSizesAndStrides: RuntimeError: Found N vs N. TensorView T?_g_float[iS?{N}, iS?{N}, iS?{i?}, iS?{i?}]'s stride mismatch with contiguity info. allocation domain: iS?{N}, iS?{N}, iS?{i?}, iS?{i?}: sizes: [N, N, N, N]: strides: [N, N, `)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[3, 3, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[2, 3, 0, 1])
    tv1 = fd.ops.cummin(tv0, dim=3)
    tv2 = fd.ops.pow(tv1, 1.0)
    fd.add_output(tv2)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(9, dtype=torch.float32, device='cuda').as_strided((3, 3, 1, 1), (1, 3, 1, 1)),
]
fd.execute(inputs)
