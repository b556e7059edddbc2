# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_reduction_f?_c?_r?_g?.cu(N): error: no operator "+" matches these operands
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv3 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T5 = fd.ops.lerp(tv0, tv2, 0.25)
    T6 = fd.ops.sum(tv3, dims=[1, 3], keepdim=True)
    T7 = fd.ops.le(T6, tv1)
    T8 = fd.ops.cos(T5)
    fd.add_output(T8)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12, 14, 9, 4), dtype=torch.bfloat16, device='cuda'),torch.testing.make_tensor((12, 14, 9, 4), dtype=torch.bfloat16, device='cuda'),torch.testing.make_tensor((12, 14, 9, 4), dtype=torch.bfloat16, device='cuda'),torch.testing.make_tensor((12, 14, 9, 4), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
