import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[5, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[0, 1])
    T1 = fd.ops.slice(T0, start_indices=[2, 3], end_indices=[4, 6])
    T2 = fd.ops.gt(T1, 1)
    T3 = fd.ops.where(T2, T1, 1)
    T4 = fd.ops.min(T1, dims=[1], keepdim=False)
    T5 = fd.ops.sub(T3, T1)
    T6 = fd.ops.broadcast_in_dim(T3, shape=[1, 2, 2, 3], broadcast_dims=[1, 3])
    T7 = fd.ops.permute(T5, dims=[0, 1])
    T8 = fd.ops.set(T6)
    T9 = fd.ops.gt(T0, 1)
    T10 = fd.ops.where(T9, T0, 1)
    fd.add_output(T10)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randint(0, 10, (30,), dtype=torch.int64, device='cuda').as_strided((5, 6), (1, 5)),
]
fd.execute(inputs)
