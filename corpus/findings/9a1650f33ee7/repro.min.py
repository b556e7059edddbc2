# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --time 240 --seed 2031 --timeout 120 --minimize-time 20 --minimize-budget 40 --corpus generative --summary gen.json
# property: the outcome depends on the inputs' memory layout
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: layout-dependent (nvfuser), bucket 9a1650f33ee7: swapping the two innermost dims in memory of T0 gives 3 kernels [greedy, pointwise×2] + 1 expr_eval; greedy → pointwise (T11 __half[11, 6, 7]) instead of 2 kernels [greedy, pointwise] + 2 expr_eval: the boundary greedy → pointwise (T11 __half[11, 6, 7]) appears
# run it: python repro.min.py, with the environment above
# as filed: the inputs in the layout that fails: the two innermost dims of T0 swapped in memory; the other one (1 kernel [greedy] + 1 expr_eval) is in report.md
# running it shows: 2 kernels [greedy, pointwise]; greedy → pointwise (T3 __half[2, 6, 2])
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[2, 6, 2], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False, stride_order=[2, 0, 1])
    T1 = fd.ops.cumprod(T0, dim=1)
    T3 = fd.ops.set(T1)
    fd.add_output(T3)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.randn(24, dtype=torch.float16, device='cuda').as_strided((2, 6, 2), (12, 1, 6)),
]
fd.execute(inputs)
