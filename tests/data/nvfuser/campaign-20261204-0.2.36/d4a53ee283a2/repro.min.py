# Minimized by fmin 0.1.0
# property: the same failure (error `nvfuser input-mismatch: tensor_metadata.cpp:validateAllocationSizesAndStrides: RuntimeError: Found N vs N. TensorView T?_g___bfloat[iS?{i?}, iS?{i?}]'s stride mismatch with contiguity info. allocation domain: iS?{i?}, iS?{i?}: sizes: [N, N]: strides: [N, N]; contiguity: t, t; dim: N`)
# confirmed on: NVIDIA H200 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0, 1])
    tv1 = fd.ops.cumprod(tv0, dim=0)
    tv2 = fd.ops.gt(tv1, tv0)
    fd.add_output(tv2)
    fd.add_output(tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(6, dtype=torch.bfloat16, device='cuda').as_strided((3, 2), (1, 3)),
]
fd.execute(inputs)
