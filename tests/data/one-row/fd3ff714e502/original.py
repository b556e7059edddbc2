# CUDA devices:
#  0: NVIDIA A100-SXM4-80GB
# torch version: 2.7.0a0+git1c7a4a5
# cuda version: 12.8
# nvfuser version: 0.2.25+gitd729c31
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id9(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[None, True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[2, 1, 0])
    M1 = fd.ops.segment_set(T0)
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    T4 = fd.ops.linear(M1, T1, T2)
    T5 = fd.ops.cast(T4, dtype=DataType.Float)
    S6 = fd.define_scalar(0.707107, dtype=DataType.Double)
    T7 = fd.ops.mul(T5, S6)
    T8 = fd.ops.erf(T7)
    S9 = fd.define_scalar(1.00000, dtype=DataType.Double)
    T10 = fd.ops.add(T8, S9)
    T11 = fd.ops.mul(T5, T10)
    M0 = fd.ops.segment_set(T11)
    S12 = fd.define_scalar(0.500000, dtype=DataType.Double)
    T13 = fd.ops.mul(M0, S12)
    T14 = fd.ops.cast(T13, dtype=DataType.BFloat16)
    S15 = fd.ops.size(M1, dim=0)
    S16 = fd.ops.size(M1, dim=1)
    V17 = fd.ops.shape(T3)
    S18 = fd.ops.size(T3, dim=0)
    S19 = fd.ops.size(T2, dim=0)
    S20 = fd.ops.div(S19, S18)
    T22 = fd.ops.reshape(T14, new_shape=[S15, S16, S20, S18])
    T23 = fd.ops.permute(T22, dims=[0, 2, 1, 3])
    T24 = fd.ops.matmul(T23, T3)
    fd.add_output(T24)

with FusionDefinition() as fd:
    nvfuser_fusion_id9(fd)

inputs = [
    torch.randn(512, dtype=torch.bfloat16, device='cuda:0').as_strided((2, 8, 64), (0, 64, 1)),
    torch.testing.make_tensor((128, 64), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((128,), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((32, 16), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
