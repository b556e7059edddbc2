# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --time 240 --seed 2031 --timeout 120 --minimize-time 20 --minimize-budget 40 --corpus generative --summary gen.json
# property: the outcome depends on the inputs' memory layout
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[2, 6, 2], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.ops.cumprod(T0, dim=1)
    T3 = fd.ops.set(T1)
    fd.add_output(T3)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 6, 2), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
