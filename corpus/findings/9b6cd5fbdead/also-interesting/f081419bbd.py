# also interesting: nvfuser internal-assert: runtime/executor_utils.cpp:getOutputAliasToInputMap: RuntimeError: Kernel found with output to output aliasing, this is unsupported at this moment.
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[1], contiguity=[None], dtype=DataType.Float, is_cpu=False)
    T7 = fd.ops.gt(tv0, 0.5)
    T12 = fd.ops.segment_set(T7)
    fd.add_output(T12)
    fd.add_output(T7)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
