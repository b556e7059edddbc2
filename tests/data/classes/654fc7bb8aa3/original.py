import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int32, is_cpu=False)
    T1 = fd.define_tensor(shape=[11], contiguity=[True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.bitwise_left_shift(T0, -1)
    T3 = fd.ops.set(T0)
    T4, T5 = fd.ops.var_mean(T1, dims=[0], correction=1, keepdim=True)
    T6 = fd.ops.cast(T2, dtype=DataType.Float)
    fd.add_output(T6)
    fd.add_output(T5)
    fd.add_output(T4)
    fd.add_output(T3)
    fd.add_output(T2)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((14,), dtype=torch.int32, device='cuda'),
    torch.testing.make_tensor((11,), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
