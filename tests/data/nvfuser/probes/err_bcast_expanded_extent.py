import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, 1], contiguity=[True, None], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.ops.broadcast_in_dim(tv0, shape=[4, 6], broadcast_dims=[0, 1])
    tv3 = fd.ops.mul(tv1, tv2)
    fd.add_output(tv3)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 1), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((4, 8), dtype=torch.float32, device='cuda:0'),
]
out = fd.execute(inputs)
print("result shape", tuple(out[0].shape))
print("matches broadcast semantics:", torch.allclose(out[0], inputs[1] * inputs[0]))
