# CUDA devices:
#  0: NVIDIA H100 80GB HBM3
# torch version: 2.6.0a0+gitdf5bbc0
# cuda version: 12.6
# nvfuser version: 0.2.23+git97544c3
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id2(fd : FusionDefinition) -> None :
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Double, is_cpu=False, stride_order=[1, 0])
    tv3 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    tv2 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    tv1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[None, None, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 1, 0])
    tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.Float, is_cpu=False, stride_order=[3, 2, 1, 0])
    T95 = fd.ops.cast(tv1, dtype=DataType.Float)
    T96 = fd.ops.mul(tv0, T95)
    T97 = fd.ops.cast(T96, dtype=DataType.BFloat16)
    T103 = fd.ops.broadcast_in_dim(T2, shape=[2, 16, 512, 8], broadcast_dims=[2, 3])
    T104 = fd.ops.cast(tv2, dtype=DataType.Float)
    T105 = fd.ops.cast(T103, dtype=DataType.Float)
    T106 = fd.ops.mul(T104, T105)
    T107 = fd.ops.cast(T106, dtype=DataType.BFloat16)
    T108 = fd.ops.cast(T97, dtype=DataType.Float)
    T109 = fd.ops.cast(T107, dtype=DataType.Float)
    T110 = fd.ops.add(T108, T109)
    T111 = fd.ops.cast(T110, dtype=DataType.BFloat16)
    T127 = fd.ops.slice(tv3, start_indices=[0, 0, 0, 8], end_indices=[2, 16, 512, 32], strides=[1, 1, 1, 1], manual_normalization=False)
    T128 = fd.ops.cat([T111, T127], dim=-1, manual_padding=False)
    fd.add_output(T128)

with FusionDefinition() as fd:
    nvfuser_fusion_id2(fd)

inputs = [
    torch.testing.make_tensor((512, 8), dtype=torch.float64, device='cuda:0'),
    torch.testing.make_tensor((2, 16, 512, 32), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((2, 16, 512, 8), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn(4096, dtype=torch.bfloat16, device='cuda:0').as_strided((2, 16, 512, 8), (0, 0, 8, 1)),
    torch.testing.make_tensor((2, 16, 512, 8), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
