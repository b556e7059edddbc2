# also interesting: nvfuser internal-assert: device_lower/analysis/predicate_elimination.cpp:setReductionInitValue: RuntimeError: Inconsistent setting of initialization value for t9. Prev: double(-inf), New: double(inf)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[5, 16], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T5 = fd.ops.abs(T1)
    T6 = fd.ops.max(T2, dims=[0], keepdim=True)
    T8 = fd.ops.min(T2, dims=[0], keepdim=True)
    fd.add_output(T8)
    fd.add_output(T6)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((5, 16), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((14,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
