import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(sizes=[8, 16], strides=[16, 1], dtype=DataType.Float, static_sizes=False, is_cpu=False)
    tv1 = fd.define_tensor(sizes=[], strides=[], dtype=DataType.Int, static_sizes=False, is_cpu=False)
    tv2 = fd.ops.index_select(tv0, tv1, 0)
    M0 = fd.ops.cast(tv2, dtype=DataType.BFloat16)
    fd.add_output(tv2)
with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [
    torch.testing.make_tensor((8, 16), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
