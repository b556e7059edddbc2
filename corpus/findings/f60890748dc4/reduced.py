# Minimized by fmin 0.1.0: fmin fuzz --backend nvfuser --device cuda --jobs 3 --timeout 120 --max-examples 0 --minimize-time 60 --minimize-budget 120 --corpus findings --summary minimize.json
# property: the same failure (error `nvfuser user-check: ir/internal_base_nodes.cpp:merge: RuntimeError: Merging IterDomains requires that their iteration types match. Outer: ID, Inner: ID`)
# confirmed on: NVIDIA H100 80GB HBM3 (nvfuser backend)
# torch version: 2.11.0+cu130
# nvfuser_direct version: 0.2.36+git7e04d26
# environment: NVFUSER_DISABLE=parallel_compile NVFUSER_DUMP=segmented_fusion,segmenter_logging
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id1(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T0 = fd.define_tensor(shape=[1, -1], contiguity=[None, True], dtype=DataType.Float, is_cpu=False)
    T3 = fd.define_tensor(shape=[], contiguity=[], dtype=DataType.Float, is_cpu=False)
    T4, _, _ = fd.ops.scaled_mm(T0, T1, T3, T3, None, None, None, dtype=DataType.BFloat16, output_block_scale_size=0, output_block_scale_dtype=DataType.BFloat16, output_gamma=False)
    T5 = fd.ops.cast(T4, dtype=DataType.Float)
    T6 = fd.ops.relu(T5)
    T7 = fd.ops.cast(T6, dtype=DataType.BFloat16)
    fd.add_output(T7)
    R0 = fd.ops.cat([T1, T1], dim=1)
    fd.add_output(R0)

with FusionDefinition() as fd:
    nvfuser_fusion_id1(fd)

inputs = [
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((), dtype=torch.float32, device='cuda:0', low=0.5, high=2.0),
]
fd.execute(inputs)
