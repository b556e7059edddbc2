# also interesting: nvfuser internal-assert: device_lower/analysis/sync_information.cpp:SyncMap: RuntimeError: Inconsistent parallelization found between T? (T?_l_float[iblockIdx.y?{N}, iS?{(ceilDiv((ceilDiv(N, blockDim.x)), gridDim.x)) ex (ceilDiv((ceilDiv((N * N), blockDim.x)), gridDim.x))}, iblockIdx.x?{gri
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1], contiguity=[True, True, True], dtype=DataType.Float, is_cpu=False)
    T2 = fd.ops.broadcast_in_dim(tv0, shape=[8, 6, 5, 13], broadcast_dims=[0, 1, 2])
    T4, T5 = fd.ops.var_mean(T2, dims=[0, 2, 3], correction=1, keepdim=False)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 6, 5), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
