# also interesting: nvfuser internal-assert: dynamic_transform.cpp:propagateFromProducerToConsumer: RuntimeError: No input ID found to map with output ID: ?S?{(__to_index((i? * i?)))}
# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv3 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.BFloat16, is_cpu=False)
    tv12 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    tv6 = fd.ops.silu(tv12)
    tv7 = fd.ops.cast(tv6, dtype=DataType.BFloat16)
    tv8 = fd.ops.linear(tv7, tv3)
    tv10 = fd.ops.permute(tv1, dims=[1, 0])
    c3 = fd.define_scalar(None, dtype=DataType.Int)
    c2 = fd.define_scalar(None, dtype=DataType.Int)
    c46 = fd.ops.mul(c3, c2)
    tv9 = fd.ops.reshape(tv8, new_shape=[c46, 64])
    tv11 = fd.ops.matmul(tv9, tv10)
    fd.add_output(tv11)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((128, 64), dtype=torch.bfloat16, device='cuda:0'),
    torch.randn(128, dtype=torch.bfloat16, device='cuda:0').as_strided((64, 128), (0, 1)),
    torch.testing.make_tensor((2, 8, 128), dtype=torch.float32, device='cuda:0'),
    2,
    8,
]
fd.execute(inputs)
