import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, 12, 1, 1], contiguity=[True, True, None, None], dtype=DataType.Float, is_cpu=False)
    T1 = fd.define_tensor(shape=[1, 1, 1, -1], contiguity=[None, None, True, None], dtype=DataType.BFloat16, is_cpu=False, stride_order=[3, 2, 0, 1])
    T2 = fd.define_tensor(shape=[1, 1, 1, 1], contiguity=[None, None, None, None], dtype=DataType.Int, is_cpu=False, stride_order=[1, 0, 3, 2])
    T3 = fd.ops.ne(T2, 0)
    T4 = fd.ops.cumprod(T2, dim=1)
    T5 = fd.ops.cast(T3, dtype=DataType.Half)
    T6 = fd.ops.reshape(T1, new_shape=[1])
    T7 = fd.ops.squeeze(T0, dims=[2, 3])
    T8 = fd.ops.mul(T4, T2)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 12, 1, 1), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((1, 1, 1, 1), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((1, 1, 1, 1), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
