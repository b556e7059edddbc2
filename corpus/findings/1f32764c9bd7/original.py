import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1, 2, 11], contiguity=[True, True, True, False], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.define_tensor(shape=[16, 11, 14, -1], contiguity=[True, False, False, True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.define_tensor(shape=[2], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T3 = fd.ops.broadcast_in_dim(T1, shape=[16, 11, 14, 6], broadcast_dims=[0, 1, 2, 3])
    T4 = fd.ops.cummax(T0, dim=3)
    T5, T6, T7 = fd.ops.welford(T3, dims=[2])
    T8 = fd.ops.threshold(T1, 0.5, 0.0)
    T9 = fd.ops.gt(T7, 3)
    T10 = fd.ops.where(T9, T7, 0)
    fd.add_output(T10)
    fd.add_output(T8)
    fd.add_output(T6)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((6, 9, 2, 11), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((16, 11, 14, 6), dtype=torch.float32, device='cuda'),
    torch.testing.make_tensor((2,), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
