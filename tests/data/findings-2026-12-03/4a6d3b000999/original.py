import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[8, -1, -1, 6], contiguity=[True, True, True, True], dtype=DataType.Double, is_cpu=False, stride_order=[3, 2, 0, 1])
    T1 = fd.define_tensor(shape=[1, 1, 1, 1], contiguity=[None, None, None, None], dtype=DataType.Int32, is_cpu=False, stride_order=[3, 1, 2, 0])
    T2 = fd.ops.slice(T0, start_indices=[7, 6, 2, 4], end_indices=[8, 7, 9, 5])
    T3 = fd.ops.prod(T2, dims=[0, 1, 2], keepdim=True)
    T4 = fd.ops.clamp(T3, -1.0, 1.0)
    T5 = fd.ops.permute(T4, dims=[0, 2, 1, 3])
    T6 = fd.ops.max(T1, dims=[0], keepdim=False)
    T7 = fd.ops.cast(T0, dtype=DataType.Int)
    T8 = fd.ops.pad(T3, [1, 2], 0.0)
    T9 = fd.ops.cast(T0, dtype=DataType.Bool)
    T10 = fd.ops.pad(T0, [2, 1, 2, 2, 1, 0], 2.0)
    fd.add_output(T10)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(7488, dtype=torch.float64, device='cuda').as_strided((8, 13, 12, 6), (936, 72, 1, 12)),
    torch.testing.make_tensor((1, 1, 1, 1), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
