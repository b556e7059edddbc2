import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[1], contiguity=[None], dtype=DataType.Half, is_cpu=False)
    T3 = fd.ops.neg(T0)
    T4 = fd.ops.gt(T1, 3.0)
    T5 = fd.ops.where(T4, T1, 1.0)
    T6 = fd.ops.gt(T1, 3.0)
    T7 = fd.ops.where(T6, T1, 0.0)
    fd.add_output(T7)
    fd.add_output(T5)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((7,), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((7,), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((1,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
