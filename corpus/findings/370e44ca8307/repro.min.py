# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 4 --timeout 120 --max-examples 0 --minimize-time 90 --minimize-budget 150 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket 370e44ca8307: nvfuser error nvfuser internal-assert: dynamic_transform.cpp:propagateFromProducerToConsumer: RuntimeError: No input ID found to map with output ID: ?S?{(V * V)}; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: dynamic_transform.cpp:propagateFromProducerToConsumer: RuntimeError: No input ID found to map with output ID: ?S?{(V * V)}`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[1, -1], contiguity=[None, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    c0 = fd.define_scalar(None, dtype=DataType.Int)
    tv2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv3 = fd.ops.linear(tv1, tv0)
    c1 = fd.ops.size(tv3, dim=0)
    c2 = fd.ops.mul(c1, c0)
    tv4 = fd.ops.reshape(tv3, new_shape=[c2, 1])
    tv5 = fd.ops.matmul(tv4, tv2)
    fd.add_output(tv5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((1, 8, 1), dtype=torch.float32, device='cuda:0'),
    8,
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
