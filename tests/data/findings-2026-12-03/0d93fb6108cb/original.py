import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, 12], contiguity=[None, True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, -1], contiguity=[None, True], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[9], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T3 = fd.ops.squeeze(T1, dims=[0])
    T4 = fd.ops.div(T2, -1.0)
    T5 = fd.ops.eq(T2, T4)
    T6 = fd.ops.pad(T5, [0, 0], True)
    fd.add_output(T6)
    fd.add_output(T3)
    fd.add_output(T5)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 12), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((1, 12), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((9,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
