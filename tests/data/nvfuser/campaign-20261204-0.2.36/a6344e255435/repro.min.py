# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser input-mismatch: tensor_metadata.cpp:validateAllocationSizesAndStrides: RuntimeError: Found N vs N. TensorView T?_g___half[iS?{i?}, iS?{i?}, iS?{N}]'s stride mismatch with contiguity info. allocation domain: iS?{i?}, iS?{N}, iS?{i?}: sizes: [N, N, N]: strides: [N, N, N]; contiguity: t,`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, 2], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[0, 2, 1])
    tv1 = fd.ops.cummin(tv0, dim=1)
    tv2 = fd.ops.asinh(tv1)
    fd.add_output(tv2)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(12, dtype=torch.float16, device='cuda').as_strided((3, 2, 2), (1, 6, 3)),
]
fd.execute(inputs)
