# also interesting: nvfuser internal-assert: dynamic_transform.cpp:propagateFromProducerToConsumer: RuntimeError: No input ID found to map with output ID: ?S?{(N * i?)}
# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    c0 = fd.define_scalar(None, dtype=DataType.Int)
    tv2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv6 = fd.define_tensor(shape=[1, -1, 1], contiguity=[None, True, None], dtype=DataType.Float, is_cpu=False)
    c1 = fd.ops.size(tv6, dim=0)
    c2 = fd.ops.mul(c1, c0)
    tv4 = fd.ops.reshape(tv6, new_shape=[c2, 1])
    tv5 = fd.ops.matmul(tv4, tv2)
    fd.add_output(tv5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    8,
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((1, 8, 1), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
