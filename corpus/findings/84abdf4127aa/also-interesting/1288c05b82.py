# also interesting: nvfuser internal-assert: device_lower/pass/expr_sort.cpp:interIterUpdate: RuntimeError: Couldn't succcessfully sort out the fusion expressions. There are remaining connections of the hierarchical segmentation which should have been flattened to a single ordered group, or disjoint ordered
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 14, 9, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.ops.exp2(T0)
    T4 = fd.ops.cumprod(T0, dim=2)
    T5 = fd.ops.lerp(T4, T2, 0.25)
    T8 = fd.ops.cos(T5)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12, 14, 9, 4), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
