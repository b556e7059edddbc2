import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[9, 8], contiguity=[True, True], dtype=DataType.Half, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False, stride_order=[0, 1])
    T2 = fd.ops.broadcast_in_dim(T1, shape=[1, 11, 16], broadcast_dims=[1, 2])
    T3 = fd.ops.ne(T2, False)
    T4 = fd.ops.sum(T2, dims=[1], keepdim=False)
    T5 = fd.ops.reshape(T0, new_shape=[2, 2, 18, 1])
    T6 = fd.ops.set(T5)
    T7 = fd.ops.set(T4)
    T8 = fd.ops.segment_set(T0)
    T9 = fd.ops.set(T1)
    fd.add_output(T9)
    fd.add_output(T8)
    fd.add_output(T7)
    fd.add_output(T6)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((9, 8), dtype=torch.float16, device='cuda'),
    torch.randint(0, 2, (176,), dtype=torch.bool, device='cuda').as_strided((11, 16), (1, 11)),
]
fd.execute(inputs)
