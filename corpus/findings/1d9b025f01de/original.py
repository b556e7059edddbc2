# CUDA devices:
#  0: NVIDIA H200
# torch version: 2.10.0+cu128
# cuda version: 12.8
import torch
from nvfuser_direct import FusionDefinition, DataType
def nvfuser_fusion(fd : FusionDefinition) -> None :
    tv0 = fd.define_tensor(shape=[-1, 1, -1], contiguity=[True, None, True], dtype=DataType.Float, is_cpu=False)
    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    tv2 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False, stride_order=[0, 1])
    tv3 = fd.ops.squeeze(tv0, dims=[1])
    tv4 = fd.ops.permute(tv2, dims=[1, 0])
    tv5 = fd.ops.add(tv3, tv4)
    tv6 = fd.ops.reshape(tv5, new_shape=[4, 4, 8])
    tv7 = fd.ops.slice(tv6, start_indices=[0, 0, 2], end_indices=[4, 4, 8], strides=[1, 1, 1], manual_normalization=True)
    tv8 = fd.ops.pad(tv7, pad_widths=[1, 1], value=0.00000)
    tv9 = fd.ops.cat([tv8, tv6], dim=2)
    tv10 = fd.ops.stride_order(tv9, stride_order=[0, 1, 2])
    tv11 = fd.ops.sum(tv5, dims=[1], dtype=DataType.Float)
    tv12 = fd.ops.broadcast(tv11, is_broadcast_dim=[False, True])
    tv13 = fd.ops.expand(tv12, shape=[-1, 32])
    tv14 = fd.ops.add(tv1, tv13)
    fd.add_output(tv10)
    fd.add_output(tv14, tv1)
    R0 = fd.ops.cat([tv13, tv13], dim=1)
    fd.add_output(R0)
    fd.add_output(tv3, tv1)
    D0 = fd.ops.squeeze(tv0, dims=[1])
    D1 = fd.ops.permute(tv2, dims=[1, 0])
    D2 = fd.ops.add(D0, D1)
    D3 = fd.ops.reshape(D2, new_shape=[4, 4, 8])
    D4 = fd.ops.slice(D3, start_indices=[0, 0, 2], end_indices=[4, 4, 8], strides=[1, 1, 1], manual_normalization=True)
    D5 = fd.ops.pad(D4, pad_widths=[1, 1], value=0.0)
    fd.add_output(D5)
with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((4, 1, 32), dtype=torch.float32, device='cuda:0'),
    torch.testing.make_tensor((4, 32), dtype=torch.float32, device='cuda:0'),
    torch.randn(128, dtype=torch.float32, device='cuda:0').as_strided((32, 4), (1, 32)),
]
fd.execute(inputs)
