# CUDA devices:
#  0: NVIDIA A100-SXM4-80GB
# torch version: 2.7.0a0+git1c7a4a5
# cuda version: 12.8
# nvfuser version: 0.2.25+gitd729c31
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id6(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    T1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False, stride_order=[0])
    T2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[1, 0])
    T3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False, stride_order=[1, 0])
    S4 = fd.define_scalar(None, dtype=DataType.Int)
    T5 = fd.ops.index_select(T0, T1, dim=0)
    T6 = fd.ops.gather(T5, T3, dim=1)
    T7 = fd.ops.take_along_axis(T5, T3, dim=1)
    T8 = fd.ops.select(T0, S4, dim=0)
    T12 = fd.ops.broadcast_in_dim(T8, shape=[16, 32], broadcast_dims=[1])
    T13 = fd.ops.add(T5, T12)
    T14 = fd.ops.embedding_fwd(T2, T0, None, None, None, None, None)
    S15 = fd.define_scalar(2.00000, dtype=DataType.Double)
    T16 = fd.ops.mul(T7, S15)
    T17 = fd.ops.sub(T6, T16)
    fd.add_output(T13)
    fd.add_output(T14)
    fd.add_output(T17)
    D0 = fd.ops.index_select(T0, T1, dim=0)
    D1 = fd.ops.gather(D0, T3, dim=1)
    fd.add_output(D1)
    R0 = fd.ops.cat([T6, T6], dim=1)
    fd.add_output(R0)

with FusionDefinition() as fd:
    nvfuser_fusion_id6(fd)

inputs = [
    torch.testing.make_tensor((64, 32), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((16,), dtype=torch.int64, device='cuda:0', low=0, high=64),
    torch.testing.make_tensor((4, 8), dtype=torch.int64, device='cuda:0', low=0, high=64),
    torch.testing.make_tensor((16, 8), dtype=torch.int64, device='cuda:0', low=0, high=32),
    3,
]
fd.execute(inputs)
