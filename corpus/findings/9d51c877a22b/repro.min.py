# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 3 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 120 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket 9d51c877a22b: nvfuser error nvfuser internal-assert: transform_iter.cpp:BestEffortReplay: RuntimeError: Error during best effort replay, a transformation was called that conflicts with an root-to-logical call.; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser internal-assert: transform_iter.cpp:BestEffortReplay: RuntimeError: Error during best effort replay, a transformation was called that conflicts with an root-to-logical call.`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id7(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    tv2 = fd.ops.mul(tv1, tv0)
    tv3 = fd.ops.sum(tv2, dims=[1], keepdim=False, dtype=DataType.Null)
    c0 = fd.define_scalar(1, dtype=DataType.Int)
    tv4 = fd.ops.broadcast_in_dim(tv3, shape=[c0, c0], broadcast_dims=[0])
    tv5 = fd.ops.mul(tv1, tv4)
    tv6 = fd.ops.sum(tv1, dims=[0], keepdim=False, dtype=DataType.Null)
    fd.add_output(tv5)
    fd.add_output(tv6)
    tv7 = fd.ops.cat([tv0, tv0], dim=0)
    fd.add_output(tv7)

with FusionDefinition() as fd:
    nvfuser_fusion_id7(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((1,), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
