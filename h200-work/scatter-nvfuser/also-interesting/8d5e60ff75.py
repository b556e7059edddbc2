# also interesting: nvfuser cuda: RangeFactories.cu:gpu_kernel_with_index: RuntimeError: CUDA error: device-side assert triggered
# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Int, is_cpu=False)
    tv3 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    c5 = fd.define_scalar(None, dtype=DataType.Int)
    tv2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Int, is_cpu=False)
    tv4 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv6 = fd.ops.index_select(tv0, tv1, dim=0)
    tv7 = fd.ops.gather(tv6, tv3, dim=1)
    tv9 = fd.ops.select(tv0, c5, dim=0)
    tv10 = fd.ops.embedding_fwd(tv2, tv0)
    tv11 = fd.ops.argsort(tv4, dim=1)
    tv12 = fd.ops.scatter(tv7, tv11, tv4, dim=1)
    tv13 = fd.ops.sub(tv12, tv4)
    fd.add_output(tv9)
    fd.add_output(tv10)
    fd.add_output(tv13)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((32, 32), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((16,), dtype=torch.int64, device='cuda:0', low=0, high=64),
    torch.testing.make_tensor((16, 8), dtype=torch.int64, device='cuda:0', low=0, high=32),
    5,
    torch.testing.make_tensor((2, 8), dtype=torch.int64, device='cuda:0'),
    torch.testing.make_tensor((16, 8), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
