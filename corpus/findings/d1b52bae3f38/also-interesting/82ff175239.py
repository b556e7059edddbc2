# also interesting: nvfuser internal-assert: device_lower/analysis/predicate_elimination.cpp:setReductionInitValue: RuntimeError: Inconsistent setting of initialization value for t21. Prev: double(N), New: double(-inf)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Double, is_cpu=False)
    T1 = fd.ops.max(T0, dims=[0], keepdim=True)
    T2 = fd.ops.div(T1, T0)
    T9, T10 = fd.ops.var_mean(T0, dims=[0], correction=1, keepdim=True)
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T12 = fd.ops.addcmul(T2, T2, T2, 0.5)
    T13 = fd.ops.cummax(T12, dim=0)
    fd.add_output(T13)
    fd.add_output(tv0)
    fd.add_output(T10)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11,), dtype=torch.float64, device='cuda'),torch.testing.make_tensor((11,), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
