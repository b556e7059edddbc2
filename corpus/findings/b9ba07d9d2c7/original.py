import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[13], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    T3 = fd.ops.segment_set(T2)
    T4 = fd.ops.addcmul(T3, T2, T3, 0.5)
    T5 = fd.ops.cumsum(T1, dim=0)
    T6 = fd.ops.set(T1)
    T7 = fd.ops.cast(T4, dtype=DataType.Int32)
    T8 = fd.ops.cummin(T1, dim=0)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((13,), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((13,), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((13,), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
