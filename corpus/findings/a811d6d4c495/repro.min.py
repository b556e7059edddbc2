# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 5 --time 240 --seed 20261206 --timeout 120 --minimize-time 30 --minimize-budget 90 -q --corpus generative --summary gen.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket a811d6d4c495: nvfuser error nvfuser internal-assert: scheduler/normalization_utils.cpp:isCacheableUnmappableTv: RuntimeError: an assertion without a message failed; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: scheduler/normalization_utils.cpp:isCacheableUnmappableTv: RuntimeError: an assertion without a message failed`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int32, is_cpu=False)
    tv1 = fd.define_tensor(shape=[3], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    tv3 = fd.ops.where(tv2, tv1, tv0)
    tv4 = fd.ops.sum(tv0, dims=[0], keepdim=True)
    tv5 = fd.ops.where(tv2, tv4, 1)
    fd.add_output(tv5)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((3,), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((3,), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((3,), dtype=torch.bool, device='cuda'),
]
fd.execute(inputs)
