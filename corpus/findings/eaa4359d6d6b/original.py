import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Bool, is_cpu=False)
    T1 = fd.define_tensor(shape=[12], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Half, is_cpu=False)
    T3 = fd.ops.cast(T2, dtype=DataType.Half)
    T4 = fd.ops.cumsum(T3, dim=0)
    T5 = fd.ops.max(T3, dims=[0], keepdim=True)
    T6 = fd.ops.lerp(T4, T2, 0.25)
    T7 = fd.ops.broadcast_in_dim(T1, shape=[4, 12, 1], broadcast_dims=[1])
    fd.add_output(T7)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((12,), dtype=torch.bool, device='cuda'),
    torch.testing.make_tensor((12,), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((16,), dtype=torch.float16, device='cuda'),
]
fd.execute(inputs)
