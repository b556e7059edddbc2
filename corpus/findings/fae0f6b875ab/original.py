import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[1, -1, 6, 16], contiguity=[True, True, True, None], dtype=DataType.Int32, is_cpu=False, stride_order=[0, 1, 2, 3])
    T1 = fd.define_tensor(shape=[13, 14, 1], contiguity=[True, True, None], dtype=DataType.Double, is_cpu=False)
    T2 = fd.ops.broadcast_in_dim(T0, shape=[1, 11, 6, 16], broadcast_dims=[0, 1, 2, 3])
    T3 = fd.ops.gt(T2, 1)
    T4 = fd.ops.where(T3, T2, -1)
    T5 = fd.ops.atan2(T1, -1.0)
    T6 = fd.ops.threshold(T1, 0.5, 0.0)
    T7 = fd.ops.cummax(T6, dim=2)
    T8 = fd.ops.max(T4, dims=[0], keepdim=False)
    T9 = fd.ops.cumsum(T8, dim=0)
    T10 = fd.ops.ge(T5, T7)
    T11 = fd.ops.logical_not(T10)
    T12 = fd.ops.round(T1)
    T13 = fd.ops.prod(T9, dims=[0], keepdim=False)
    T14 = fd.ops.cummin(T2, dim=1)
    fd.add_output(T14)
    fd.add_output(T13)
    fd.add_output(T12)
    fd.add_output(T11)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (1056,), dtype=torch.int32, device='cuda').as_strided((1, 11, 6, 16), (1, 1, 11, 66)),
    torch.testing.make_tensor((13, 14, 1), dtype=torch.float64, device='cuda'),
]
fd.execute(inputs)
