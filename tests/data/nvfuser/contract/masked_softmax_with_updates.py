import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    hidden = fd.define_tensor(shape=[16, 17], contiguity=[True, True], dtype=DataType.BFloat16, is_cpu=False)
    keep = fd.define_tensor(shape=[16, 17], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False)
    extra = fd.define_tensor(shape=[16, 17], contiguity=[True, True], dtype=DataType.Bool, is_cpu=False)
    scores = fd.define_tensor(shape=[1, 4, 16, 16], contiguity=[None, True, True, True], dtype=DataType.BFloat16, is_cpu=False)
    hidden_f = fd.ops.cast(hidden, dtype=DataType.Float)
    either = fd.ops.bitwise_or(keep, extra)
    mask = fd.ops.set(either)
    fd.add_output(mask, keep)
    mask_f = fd.ops.cast(mask, dtype=DataType.Float)
    masked = fd.ops.mul(hidden_f, mask_f)
    masked_b = fd.ops.cast(masked, dtype=DataType.BFloat16)
    new_hidden = fd.ops.set(masked_b)
    fd.add_output(new_hidden, hidden)
    b3 = fd.ops.broadcast_in_dim(new_hidden, shape=[1, 16, 17], broadcast_dims=[1, 2])
    b4 = fd.ops.broadcast_in_dim(b3, shape=[1, 1, 16, 17], broadcast_dims=[0, 2, 3])
    b4_again = fd.ops.broadcast_in_dim(b4, shape=[1, 1, 16, 17], broadcast_dims=[0, 1, 2, 3])
    bias = fd.ops.slice(b4_again, start_indices=[0, 0, 0, 0], end_indices=[1, 1, 16, 16], strides=[1, 1, 1, 1], manual_normalization=False)
    bias_heads = fd.ops.broadcast_in_dim(bias, shape=[1, 4, 16, 16], broadcast_dims=[0, 1, 2, 3])
    bias_f = fd.ops.cast(bias_heads, dtype=DataType.Float)
    scores_f = fd.ops.cast(scores, dtype=DataType.Float)
    scale = fd.define_scalar(0.125, dtype=DataType.Double)
    scaled = fd.ops.mul(scores_f, scale)
    logits = fd.ops.add(scaled, bias_f)
    top = fd.ops.max(logits, dims=[3], keepdim=False)
    top_b = fd.ops.broadcast_in_dim(top, shape=[1, 4, 16, 1], broadcast_dims=[0, 1, 2])
    top_full = fd.ops.broadcast_in_dim(top_b, shape=[1, 4, 16, 16], broadcast_dims=[0, 1, 2, 3])
    centred = fd.ops.sub(logits, top_full)
    e = fd.ops.exp(centred)
    denom = fd.ops.sum(e, dims=[3], keepdim=False)
    denom_b = fd.ops.broadcast_in_dim(denom, shape=[1, 4, 16, 1], broadcast_dims=[0, 1, 2])
    denom_full = fd.ops.broadcast_in_dim(denom_b, shape=[1, 4, 16, 16], broadcast_dims=[0, 1, 2, 3])
    inv = fd.ops.reciprocal(denom_full)
    probs = fd.ops.mul(e, inv)
    probs_b = fd.ops.cast(probs, dtype=DataType.BFloat16)
    fd.add_output(bias_heads)
    fd.add_output(probs)
    fd.add_output(probs_b)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((16, 17), dtype=torch.bfloat16, device='cuda:0'),
    torch.testing.make_tensor((16, 17), dtype=torch.bool, device='cuda:0'),
    torch.testing.make_tensor((16, 17), dtype=torch.bool, device='cuda:0'),
    torch.testing.make_tensor((1, 4, 16, 16), dtype=torch.bfloat16, device='cuda:0'),
]
fd.execute(inputs)
