# also interesting: nvfuser internal-assert: dynamic_transform.cpp:propagateFromProducerToConsumer: RuntimeError: No input ID found to map with output ID: ?S?{(__to_index(i?))}
# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv3 = fd.define_tensor(shape=[-1, -1], contiguity=[None, True], dtype=DataType.BFloat16, is_cpu=False)
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    tv8 = fd.ops.linear(tv0, tv3)
    tv2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    c2 = fd.define_scalar(None, dtype=DataType.Int)
    tv9 = fd.ops.reshape(tv8, new_shape=[c2, 64])
    tv11 = fd.ops.matmul(tv9, tv2)
    fd.add_output(tv11)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(128, dtype=torch.bfloat16, device='cuda:0').as_strided((64, 128), (0, 1)),
    torch.testing.make_tensor((2, 8, 128), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((64, 128), dtype=torch.bfloat16, device='cuda:0'),
    16,
]
fd.execute(inputs)
