# also interesting: nvfuser internal-assert: device_lower/analysis/predicate_elimination.cpp:setReductionInitValue: RuntimeError: Inconsistent setting of initialization value for t?. Prev: float(N), New: double(-inf)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[14], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    T9, T10 = fd.ops.var_mean(T0, dims=[0], correction=0, keepdim=True)
    T13 = fd.ops.max(T0, dims=[0], keepdim=True)
    fd.add_output(T13)
    fd.add_output(T9)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((14,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
