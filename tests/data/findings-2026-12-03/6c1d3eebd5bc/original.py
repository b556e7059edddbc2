import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[6, 1, 12, 1], contiguity=[None, True, None, True], dtype=DataType.Bool, is_cpu=False, stride_order=[2, 1, 0, 3])
    T1 = fd.define_tensor(shape=[-1, 1, -1, 1], contiguity=[True, None, True, None], dtype=DataType.BFloat16, is_cpu=False)
    T2 = fd.ops.slice(T1, start_indices=[0, 0, 10, 0], end_indices=[2, 1, 12, 1])
    T3 = fd.ops.expand(T1, shape=[-1, 2, -1, 4])
    T4 = fd.ops.cat([T3, T3], dim=0)
    T5 = fd.ops.broadcast_in_dim(T3, shape=[6, 2, 12, 4], broadcast_dims=[0, 1, 2, 3])
    T6 = fd.ops.broadcast_in_dim(T2, shape=[2, 1, 2, 1], broadcast_dims=[0, 1, 2, 3])
    T7 = fd.ops.broadcast_in_dim(T0, shape=[6, 1, 12, 1], broadcast_dims=[0, 1, 2, 3])
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 2, (72,), dtype=torch.bool, device='cuda').as_strided((6, 1, 12, 1), (12, 12, 1, 72)),
    torch.testing.make_tensor((6, 1, 12, 1), dtype=torch.bfloat16, device='cuda'),
]
fd.execute(inputs)
