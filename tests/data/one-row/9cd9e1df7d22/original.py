import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 6], contiguity=[False, True, True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.define_tensor(shape=[5, 16], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T3 = fd.ops.stride_order(T0, stride_order=[1, 0, 2])
    T4 = fd.ops.pad(T3, [1, 2])
    T5 = fd.ops.abs(T1)
    T6 = fd.ops.max(T2, dims=[0], keepdim=True)
    T7 = fd.ops.stride_order(T4, stride_order=[2, 1, 0])
    T8 = fd.ops.min(T2, dims=[0], keepdim=True)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((11, 3, 6), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((5, 16), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((14,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
