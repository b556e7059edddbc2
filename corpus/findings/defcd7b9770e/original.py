import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion_func(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(sizes=[1048576], strides=[1], dtype=DataType.Float, static_sizes=False, is_cpu=False)
    M0 = fd.ops.cast(tv0, dtype=DataType.Float)
    tv1 = fd.define_tensor(sizes=[1048576], strides=[1], dtype=DataType.Float, static_sizes=False, is_cpu=False)
    c2 = fd.define_scalar(3.0)
    tv3 = fd.ops.pow(M0, tv1)
    fd.add_output(tv3)
    fd.add_output(tv3, tv0)
    R0 = fd.ops.cat([tv1, tv1], dim=0)
    fd.add_output(R0)
with FusionDefinition() as fd:
    fusion_func(fd)

inputs = [
    torch.testing.make_tensor((1048576,), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((1048576,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
