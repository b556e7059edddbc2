import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[3, -1, -1], contiguity=[True, True, True], dtype=DataType.Int, is_cpu=False)
    T1 = fd.define_tensor(shape=[-1, -1, 1], contiguity=[False, False, None], dtype=DataType.Half, is_cpu=False)
    T2 = fd.define_tensor(shape=[-1, 10, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.set(T0)
    T4 = fd.ops.lerp(T1, 2.0, 0.25)
    T5 = fd.ops.threshold(T3, 1, 0)
    fd.add_output(T5)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((3, 10, 13), dtype=torch.int64, device='cuda'),
    torch.testing.make_tensor((3, 10, 1), dtype=torch.float16, device='cuda'),
    torch.testing.make_tensor((3, 10, 13), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
