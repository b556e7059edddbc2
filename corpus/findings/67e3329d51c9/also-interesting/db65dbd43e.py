# also interesting: nvfuser internal-assert: device_lower/analysis/thread_predicate.cpp:updateBitSet: RuntimeError: Mismatched parallelized reductions found on inputs of epxr: T?_g_int64_t[iS?{N}] ca_pos(N)
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T1 = fd.define_tensor(shape=[7, 1], contiguity=[False, None], dtype=DataType.Int, is_cpu=False)
    T5 = fd.ops.max(T1, dims=[0], keepdim=False)
    T6 = fd.ops.squeeze(T1, dims=[1])
    T10 = fd.ops.bitwise_or(T5, T6)
    fd.add_output(T10)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((7, 1), dtype=torch.int64, device='cuda'),
]
fd.execute(inputs)
