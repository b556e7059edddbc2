# also interesting: nvfuser internal-assert: runtime/executor_utils.cpp:getOutputAliasToInputMap: RuntimeError: Kernel found with output to output aliasing, this is unsupported at this moment.
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[1, 1, 1], contiguity=[None, None, None], dtype=DataType.Int, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, 1, 1], contiguity=[None, None, None], dtype=DataType.Int, is_cpu=False)
    T3 = fd.ops.neg(tv0)
    T6 = fd.ops.segment_set(T3)
    fd.add_output(T6)
    fd.add_output(T1)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 1, 1), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((1, 1, 1), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
