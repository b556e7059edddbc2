# also interesting: crash: exit code 3
# CUDA devices:
#  0: NVIDIA A100-SXM4-80GB
# torch version: 2.7.0a0+git1c7a4a5
# cuda version: 12.8
# nvfuser version: 0.2.25+gitd729c31
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id6(fd : FusionDefinition) -> None :
    tv4 = fd.define_tensor(shape=[1, 1], contiguity=[None, None], dtype=DataType.Float, is_cpu=False, stride_order=[1, 0])
    tv3 = fd.ops.cat([tv4, tv4], dim=1)
    fd.add_output(tv3)

with FusionDefinition() as fd:
    nvfuser_fusion_id6(fd)

inputs = [
    torch.testing.make_tensor((1, 1), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
