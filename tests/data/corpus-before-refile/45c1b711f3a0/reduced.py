# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 4 --timeout 120 --max-examples 0 --minimize-time 90 --minimize-budget 150 --corpus findings --summary minimize.json
# property: outputs differ from reference in values beyond tolerance
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.ops.linear(tv1, tv0)
    fd.add_output(tv2, tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((1, 1, 1), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
