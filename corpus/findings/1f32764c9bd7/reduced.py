# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 5 --time 240 --seed 20261206 --timeout 120 --minimize-time 30 --minimize-budget 90 -q --corpus generative --summary gen.json
# property: outputs differ from reference in dtype beyond tolerance
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[2, 2, 3, -1], contiguity=[True, False, False, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.ops.broadcast_in_dim(tv0, shape=[2, 2, 3, 3], broadcast_dims=[0, 1, 2, 3])
    tv2, tv3, tv4 = fd.ops.welford(tv1, dims=[2])
    fd.add_output(tv4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((2, 2, 3, 3), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
