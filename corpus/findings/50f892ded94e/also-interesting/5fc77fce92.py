# also interesting: nvfuser internal-assert: transform_replay.cpp:selfReplay: RuntimeError: Axes iS?{i?} and bS?{N ex N} do not match for self replay.
# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv7 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
    tv13 = fd.ops.expand(tv2, shape=[-1, 32])
    fd.add_output(tv7)
    fd.add_output(tv13, tv1)
    tv3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    fd.add_output(tv3, tv1)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 32), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((4, 32), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((4, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((4, 32), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
