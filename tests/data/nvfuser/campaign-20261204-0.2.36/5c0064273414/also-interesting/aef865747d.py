# also interesting: nvfuser internal-assert: id_model/id_model.cpp:resolvedRootBroadcasts: RuntimeError: Unexpected domain: rS?{N}rf
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[1, 4, 1, 7], contiguity=[True, None, False, None], dtype=DataType.Float, is_cpu=False, stride_order=[2, 3, 0, 1])
    T3, T4, T5 = fd.ops.welford(T1, dims=[0, 1, 2])
    fd.add_output(T5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(28, dtype=torch.float32, device='cuda').as_strided((1, 4, 1, 7), (7, 7, 1, 1)),
]
fd.execute(inputs)
