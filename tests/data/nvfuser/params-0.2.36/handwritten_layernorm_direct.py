# LayerNorm forward, written by hand against the nvfuser_direct frontend.
# Statistics come from var_mean; they are re-broadcast with broadcast_in_dim
# against the runtime shape of the input.
import torch
from nvfuser_direct import FusionDefinition, DataType


def layer_norm_fusion(fd: FusionDefinition) -> None:
    # x: [tokens, hidden] fp16; weight and bias: [hidden] fp16
    x = fd.define_tensor(shape=[-1, -1], contiguity=True, dtype=DataType.Half)
    weight = fd.define_tensor(shape=[-1], contiguity=True, dtype=DataType.Half)
    bias = fd.define_tensor(shape=[-1], contiguity=True, dtype=DataType.Half)

    xf = fd.ops.cast(x, DataType.Float)
    var, mean = fd.ops.var_mean(xf, [1], correction=0)

    # broadcast the per-row statistics back to [tokens, hidden]
    x_shape = fd.ops.shape(xf)
    mean_b = fd.ops.broadcast_in_dim(mean, shape=x_shape, broadcast_dims=[0])
    var_b = fd.ops.broadcast_in_dim(var, x_shape, [0])
    invstd = fd.ops.rsqrt(fd.ops.add(var_b, 1e-5))

    y = fd.ops.mul(fd.ops.sub(xf, mean_b), invstd)

    # affine part
    w = fd.ops.broadcast_in_dim(fd.ops.cast(weight, DataType.Float), x_shape, [1])
    b = fd.ops.broadcast_in_dim(fd.ops.cast(bias, DataType.Float), x_shape, [1])
    out = fd.ops.add(fd.ops.mul(y, w), b)

    fd.add_output(fd.ops.cast(out, DataType.Half))
    fd.add_output(mean)


with FusionDefinition() as fd:
    layer_norm_fusion(fd)

inputs = [
    torch.randn(32, 1024, device="cuda", dtype=torch.float16),
    torch.randn(1024, device="cuda", dtype=torch.float16),
    torch.randn(1024, device="cuda", dtype=torch.float16),
]
out = fd.execute(inputs)
