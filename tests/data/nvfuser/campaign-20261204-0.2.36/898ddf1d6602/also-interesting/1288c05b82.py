# also interesting: nvfuser internal-assert: device_lower/pass/expr_sort.cpp:interIterUpdate: RuntimeError: Couldn't succcessfully sort out the fusion expressions. There are remaining connections of the hierarchical segmentation which should have been flattened to a single ordered group, or disjoint ordered
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[13, 4], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    T3 = fd.ops.cumsum(T0, dim=0)
    T4 = fd.ops.logical_and(T0, T3)
    T5 = fd.ops.neg(T0)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((13, 4), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
