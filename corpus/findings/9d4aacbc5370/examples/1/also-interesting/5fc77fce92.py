# also interesting: nvfuser internal-assert: transform_replay.cpp:selfReplay: RuntimeError: Axes iS?{i?} and bS?{N ex N} do not match for self replay.
# CUDA devices:
#  0: NVIDIA A100-SXM4-80GB
# torch version: 2.7.0a0+git1c7a4a5
# cuda version: 12.8
# nvfuser version: 0.2.25+gitd729c31
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id5(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[0, 1])
    tv0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float, is_cpu=False, stride_order=[0])
    T17 = fd.ops.broadcast_in_dim(tv0, shape=[32, 64], broadcast_dims=[1])
    fd.add_output(T17, T0)

with FusionDefinition() as fd:
    nvfuser_fusion_id5(fd)

inputs = [
    torch.randn(2048, dtype=torch.float32, device='cuda:0').as_strided((32, 64), (1, 32)),
    torch.testing.make_tensor((64,), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
