import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[8, 5], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.ops.segment_set(T0)
    T2 = fd.ops.addcmul(T1, T0, T1, 0.5)
    T3 = fd.ops.log1p(T0)
    T4 = fd.ops.set(T0)
    T5 = fd.ops.cast(T3, dtype=DataType.Int32)
    T6 = fd.ops.truediv(T1, T3)
    T7 = fd.ops.permute(T5, dims=[0, 1])
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T4)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 5), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
