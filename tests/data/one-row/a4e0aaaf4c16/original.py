import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[5, -1], contiguity=[False, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1, 4], contiguity=[False, True, True], dtype=DataType.Double, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Int32, is_cpu=False)
    T3 = fd.ops.set(T1)
    T4 = fd.ops.cat([T2, T2], dim=0)
    T5, T6, T7 = fd.ops.welford(T3, dims=[2])
    T8 = fd.ops.broadcast_in_dim(T6, shape=[14, 14, 4], broadcast_dims=[0, 1])
    T9 = fd.ops.slice(T8, start_indices=[10, 4, 0], end_indices=[14, 9, 4])
    T10 = fd.ops.cat([T8, T8], dim=1)
    T11 = fd.ops.ne(T10, 0.0)
    fd.add_output(T11)
    fd.add_output(T9)
    fd.add_output(T7)
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((5, 11), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((14, 14, 4), dtype=torch.float64, device='cuda'),
    torch.testing.make_tensor((5, 1), dtype=torch.int32, device='cuda'),
]
fd.execute(inputs)
