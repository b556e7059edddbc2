# also interesting: nvfuser internal-assert: device_lower/analysis/predicate_elimination.cpp:setReductionInitValue: RuntimeError: Inconsistent setting of initialization value for t?. Prev: double(inf), New: float(N)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[10], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.min(T0, dims=[0], keepdim=True)
    T3 = fd.ops.sum(T0, dims=[0], keepdim=True)
    fd.add_output(T3)
    fd.add_output(T1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((10,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
