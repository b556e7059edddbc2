# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[False, False], dtype=DataType.Float, is_cpu=False)
    M0 = fd.ops.segment_set(tv0)
    tv1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    tv3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    tv4 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    c5 = fd.define_scalar(None, dtype=DataType.Int)
    tv6 = fd.ops.index_select(M0, tv1, dim=0)
    tv7 = fd.ops.gather(tv6, tv3, dim=1)
    tv8 = fd.ops.take_along_axis(tv6, tv3, dim=1)
    tv9 = fd.ops.select(M0, c5, dim=0)
    tv10 = fd.ops.embedding_fwd(tv2, M0)
    tv11 = fd.ops.argsort(tv4, dim=1)
    tv12 = fd.ops.scatter(tv7, tv11, tv4, dim=1)
    tv13 = fd.ops.sub(tv12, tv8)
    fd.add_output(tv9)
    fd.add_output(tv10)
    fd.add_output(tv13)
    fd.add_output(M0, tv0)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(4064, dtype=torch.float32, device='cuda:0').as_strided((64, 32), (64, 1)),
    torch.testing.make_tensor((16,), dtype=torch.int64, device='cuda:0', low=0, high=64),
    torch.testing.make_tensor((4, 8), dtype=torch.int64, device='cuda:0', low=0, high=64),
    torch.testing.make_tensor((16, 8), dtype=torch.int64, device='cuda:0', low=0, high=32),
    torch.testing.make_tensor((16, 8), dtype=torch.float32, device='cuda:0'),
    5,
]
fd.execute(inputs)
