# also interesting: nvfuser internal-assert: device_lower/analysis/predicate_elimination.cpp:setReductionInitValue: RuntimeError: Inconsistent setting of initialization value for t13. Prev: double(-inf), New: double(inf)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[5, 16], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Int, is_cpu=False)
    T4 = fd.ops.pad(tv0, [1, 2])
    T5 = fd.ops.abs(T1)
    T6 = fd.ops.max(T2, dims=[0], keepdim=True)
    T7 = fd.ops.stride_order(T4, stride_order=[2, 1, 0])
    T8 = fd.ops.min(T2, dims=[0], keepdim=True)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((5, 16), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((14,), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((11, 3, 6), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
