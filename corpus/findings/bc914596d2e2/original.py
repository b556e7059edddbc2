import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[16, 16, 15, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, -1, -1, 10], contiguity=[None, True, True, True], dtype=DataType.Int32, is_cpu=False)
    T2 = fd.define_tensor(shape=[16, 16, 15, -1], contiguity=[True, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    T3 = fd.ops.set(T0)
    T4 = fd.ops.cast(T2, dtype=DataType.Half)
    T5 = fd.ops.lerp(T3, 2.0, 0.25)
    T6 = fd.ops.stride_order(T0, stride_order=[3, 0, 1, 2])
    T7 = fd.ops.sqrt(T4)
    T8 = fd.ops.acosh(T0)
    T9 = fd.ops.sum(T5, dims=[1, 2], keepdim=True)
    T10 = fd.ops.slice(T3, start_indices=[13, 2, 0, 6], end_indices=[16, 16, 14, 8])
    T11 = fd.ops.cumsum(T2, dim=2)
    fd.add_output(T11)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T8)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((16, 16, 15, 10), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((1, 16, 15, 10), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((16, 16, 15, 10), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
