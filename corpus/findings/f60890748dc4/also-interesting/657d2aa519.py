# also interesting: nvfuser other: RuntimeError: Expected both inputs to be fp8 or fp4 types but got self.dtype=torch.float32 and mat2.dtype=torch.float32
# CUDA devices:
#  0: NVIDIA H100 80GB HBM3
#  1: NVIDIA H100 80GB HBM3
# torch version: 2.9.0+cu128
# cuda version: 12.8
# nvfuser version: 0.2.35+git2b0490a
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

with FusionDefinition() as fd:
    nvfuser_fusion_id1(fd)

inputs = [
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((), dtype=torch.float32, device='cuda:0', low=0.5, high=2.0),
]
fd.execute(inputs)
