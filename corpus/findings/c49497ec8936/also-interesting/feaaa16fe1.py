# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_reduction_f?_c?_r?_g?.cu(N): error: no operator "*" matches these operands
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[5], contiguity=[False], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[2, 15, -1, 14], contiguity=[True, True, True, True], dtype=DataType.Double, is_cpu=False, stride_order=[3, 2, 0, 1])
    T2 = fd.ops.segment_set(T1)
    T3, T4, T5 = fd.ops.welford(T1, dims=[0, 1])
    T6 = fd.ops.gt(T2, 0.5)
    T7 = fd.ops.where(T6, T2, -1.0)
    T8 = fd.ops.pow(T7, T2)
    T10 = fd.ops.prod(T0, dims=[0], keepdim=True)
    T11 = fd.ops.threshold(T8, 0.5, 0.0)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((5,), dtype=torch.bfloat16, device='cuda'),
    torch.randn(840, dtype=torch.float64, device='cuda').as_strided((2, 15, 2, 14), (420, 28, 1, 2)),
]
fd.execute(inputs)
