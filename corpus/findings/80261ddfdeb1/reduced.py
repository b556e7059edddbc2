# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --time 240 --seed 2031 --timeout 120 --minimize-time 20 --minimize-budget 60 --corpus generative --summary gen.json
# property: outputs differ from reference in values beyond tolerance
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[4, 13, 4], contiguity=[True, True, True], dtype=DataType.Half, is_cpu=False)
    T4 = fd.ops.set(T1)
    T8 = fd.ops.cumprod(T4, dim=1)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 13, 4), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
