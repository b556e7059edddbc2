import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    x = fd.define_tensor(shape=[1, 96], contiguity=[None, True], dtype=DataType.BFloat16, is_cpu=False)
    res = fd.define_tensor(shape=[1, 96], contiguity=[None, True], dtype=DataType.BFloat16, is_cpu=False)
    gamma = fd.define_tensor(shape=[96], contiguity=[True], dtype=DataType.BFloat16, is_cpu=False)
    width = fd.define_scalar(96, dtype=DataType.Int)
    eps = fd.define_scalar(1e-06, dtype=DataType.Double)
    summed = fd.ops.add(x, res)
    squares = fd.ops.mul(summed, summed)
    sq_sum = fd.ops.sum(squares, dims=[-1], keepdim=True)
    mean_sq = fd.ops.div(sq_sum, width)
    padded = fd.ops.add(mean_sq, eps)
    inv_rms = fd.ops.rsqrt(padded)
    normed = fd.ops.mul(summed, inv_rms)
    gamma_b = fd.ops.broadcast_in_dim(gamma, shape=[1, 96], broadcast_dims=[1])
    y = fd.ops.mul(normed, gamma_b)
    y_b = fd.ops.cast(y, dtype=DataType.BFloat16)
    fd.add_output(y_b, x)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((1, 96), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((1, 96), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((96,), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
