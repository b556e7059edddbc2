# also interesting: nvfuser internal-assert: device_lower/analysis/sync_information.cpp:SyncMap: RuntimeError: Inconsistent parallelization found between T? (T?_l_float[iblockIdx.y?{(((((getMetaData(T?))).logical_size))[N])}, iS?{(ceilDiv((ceilDiv((((((getMetaData(T?))).logical_size))[N]), N)), gridDim.z))}, i
import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1, -1, -1], contiguity=[True, True, True, None], dtype=DataType.Float, is_cpu=False)
    T3 = fd.ops.expm1(tv0)
    T4, T5 = fd.ops.var_mean(T3, dims=[0, 2, 3], correction=1, keepdim=False)
    fd.add_output(T4)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.randn(960, dtype=torch.float32, device='cuda').as_strided((16, 6, 10, 13), (60, 10, 1, 0)),
]
fd.execute(inputs)
