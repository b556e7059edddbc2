# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 3 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 120 --corpus findings --summary minimize.json
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend); torch 2.11.0+cu130; nvfuser_direct 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
# finding: failure (nvfuser), bucket 8f94b79496d3: nvfuser error nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: ptxas application ptx input, line N; error : Argument N of instruction 'cp.async': unexpected value 'N', expected to be N or N or N; run it: python repro.min.py (it sets the nvFuser options it needs itself); it shows error `nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: ptxas application ptx input, line N; error : Argument N of instruction 'cp.async': unexpected value 'N', expected to be N or N or N`
import os
os.environ.setdefault('NVFUSER_DISABLE', 'parallel_compile')   # as fmin ran it (the environment above)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id7(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, False], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    tv1 = fd.ops.cast(tv0, dtype=DataType.Float)
    tv2 = fd.ops.sum(tv1, dims=[1], keepdim=False, dtype=DataType.Null)
    c0 = fd.define_scalar(2, dtype=DataType.Int)
    c1 = fd.define_scalar(1, dtype=DataType.Int)
    tv3 = fd.ops.broadcast_in_dim(tv2, shape=[c0, c1], broadcast_dims=[0])
    tv4 = fd.ops.broadcast_in_dim(tv3, shape=[c0, c0], broadcast_dims=[0, 1])
    tv5 = fd.ops.mul(tv1, tv4)
    tv6 = fd.ops.sum(tv1, dims=[0], keepdim=False, dtype=DataType.Null)
    fd.add_output(tv5)
    fd.add_output(tv6)

with FusionDefinition() as fd:
    nvfuser_fusion_id7(fd)

torch.manual_seed(0)   # the seed fmin ran this script with: the same input values
inputs = [
    torch.testing.make_tensor((2, 2), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
