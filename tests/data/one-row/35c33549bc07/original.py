import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 10, 6], contiguity=[True, True, True, True], dtype=DataType.Double, is_cpu=False, stride_order=[1, 0, 3, 2])
    T1 = fd.define_tensor(shape=[1, 3, 1, 1], contiguity=[None, True, None, None], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.define_tensor(shape=[1, 1, -1, 1], contiguity=[None, None, True, None], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.relu(T0)
    T4 = fd.ops.threshold(T1, 0.5, 0.0)
    T5 = fd.ops.tan(T4)
    T6 = fd.ops.cast(T5, dtype=DataType.Int32)
    T7 = fd.ops.cast(T4, dtype=DataType.BFloat16)
    T8 = fd.ops.set(T1)
    T9 = fd.ops.sum(T7, dims=[1, 2, 3], keepdim=False)
    T10 = fd.ops.lt(T8, T7)
    T11 = fd.ops.cumprod(T6, dim=1)
    T12 = fd.ops.segment_set(T8)
    T13 = fd.ops.lerp(T8, 2.0, 0.25)
    T14 = fd.ops.prod(T8, dims=[0, 1, 3], keepdim=False)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(1260, dtype=torch.float64, device='cuda').as_strided((7, 3, 10, 6), (3, 1, 126, 21)),
    torch.testing.make_tensor((1, 3, 1, 1), dtype=torch.bfloat16, device='cuda'),
    torch.testing.make_tensor((1, 1, 10, 1), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
