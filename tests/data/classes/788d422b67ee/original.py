import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=True, dtype=DataType.Float, is_cpu=False)
    tv1, tv2 = fd.ops.nv_block_quantize(tv0, None, False, 32, DataType.Float8_e4m3fn)
    M0 = fd.ops.segment_set(tv2)
    fd.add_output(tv1)
    fd.add_output(M0)
with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [
    torch.testing.make_tensor((1024, 1024), dtype=torch.float32, device='cuda'),
]
fd.execute(inputs)
