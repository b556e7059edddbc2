# also interesting: nvfuser compile: runtime/compiled_kernel.cpp:invoke: RuntimeError: CUDA NVRTC compile error: __tmp_nvfuser_no_op_f?_c?_r?_g?.cu(N): error: no instance of overloaded function "nvf::clamp" matches the argument list
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[1], contiguity=[None], dtype=DataType.Half, is_cpu=False)
    T4 = fd.ops.clamp(tv0, -1.0, 1.0)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
