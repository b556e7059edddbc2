# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_*.cu(N): error: no operator "+" matches these operands
# CUDA devices:
#  0: NVIDIA H100 80GB HBM3
# torch version: 2.4.0a0+git8d5fd5d
# cuda version: 12.4
# nvfuser version: 0.2.8+git0429a13
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id7(fd : FusionDefinition) -> None :
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.BFloat16, is_cpu=False, stride_order=[1, 0])
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T15 = fd.ops.sum(T3, dims=[1], keepdim=False, dtype=DataType.Null)
    S18 = fd.define_scalar(64, dtype=DataType.Int)
    S19 = fd.define_scalar(1, dtype=DataType.Int)
    T21 = fd.ops.broadcast_in_dim(T15, shape=[S18, S19], broadcast_dims=[0])
    S25 = fd.define_scalar(64, dtype=DataType.Int)
    S26 = fd.define_scalar(1024, dtype=DataType.Int)
    T28 = fd.ops.broadcast_in_dim(T21, shape=[S25, S26], broadcast_dims=[0, 1])
    T29 = fd.ops.mul(tv0, T28)
    T33 = fd.ops.mul(tv1, tv0)
    T35 = fd.ops.sum(T33, dims=[0], keepdim=False, dtype=DataType.Null)
    fd.add_output(T29)
    fd.add_output(T35)
    fd.add_output(T3)
    R1 = fd.ops.cat([T3, T3], dim=1)
    fd.add_output(R1)

with FusionDefinition() as fd:
    nvfuser_fusion_id7(fd)

inputs = [
    torch.randn((1024,), dtype=torch.bfloat16, device='cuda:0').as_strided((64, 1024), (0, 1)),
    torch.testing.make_tensor((64, 1024), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((64, 1024), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
