# also interesting: nvfuser internal-assert: device_lower/analysis/predicate_elimination.cpp:setReductionInitValue: RuntimeError: Inconsistent setting of initialization value for t?. Prev: float(N), New: float(N)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.set(T0)
    T2 = fd.ops.prod(T1, dims=[0], keepdim=True)
    T5 = fd.ops.sum(T1, dims=[0], keepdim=True)
    fd.add_output(T5)
    fd.add_output(T0)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
