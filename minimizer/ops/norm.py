"""batch_norm (legacy frontend only), after nvFuser's composite in ``csrc/ops/normalization.cpp``.

In training, or without running stats, it normalises with the batch statistics and returns them
as ``(out, mean, invstd)`` (biased variance, per channel). In inference it uses the running
statistics and returns ``running_mean`` and ``rsqrt(running_var + eps)``; torch's
``native_batch_norm`` returns empty tensors there instead, so it is not used.

nvFuser also writes updated running statistics back into ``running_mean``/``running_var`` in
training (aliased outputs); the reference leaves its inputs untouched, so a script that reads the
running stats again after the op sees the old values here.
"""
from __future__ import annotations

import torch

from .dims import NOT_FOLLOWED
from .registry import register
from .spec import LEGACY_ONLY, OpSpec, Param, not_generated


def _batch_norm(ctx, arg, weight, bias, running_mean, running_var, momentum, eps, training,
                channels_last=False):
    if (running_mean is None) != (running_var is None):
        raise ValueError("running stats should comes in pairs")
    c = arg.ndim - 1 if channels_last else 1
    reduce_dims = [d for d in range(arg.ndim) if d != c]
    shape = [1] * arg.ndim
    shape[c] = arg.shape[c]
    if training or running_mean is None:
        mean = torch.mean(arg, reduce_dims)
        invstd = torch.rsqrt(torch.var(arg, reduce_dims, correction=0) + eps)
    else:
        mean = running_mean
        invstd = torch.rsqrt(running_var + eps)
    out = (arg - mean.reshape(shape)) * invstd.reshape(shape)
    if weight is not None:
        out = out * weight.reshape(shape)
    if bias is not None:
        out = out + bias.reshape(shape)
    return out, mean, invstd


register(OpSpec("batch_norm", "norm", (
    Param("arg", "tensor"),
    Param("weight", "tensor", None), Param("bias", "tensor", None),
    Param("running_mean", "tensor", None), Param("running_var", "tensor", None),
    Param("momentum", "scalar"), Param("eps", "scalar"), Param("training", "bool"),
    Param("channels_last", "bool", False),
), ref=_batch_norm, n_outputs=3, frontends=LEGACY_ONLY,
    doc="F.batch_norm -> (out, mean, invstd)", generate=not_generated("not added to the generator yet"),
    dim_rule=NOT_FOLLOWED))
