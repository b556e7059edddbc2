"""Plain-torch references for corpus scripts, written by hand (they do not use fmin).

Each function takes the script's ``inputs`` list (tensors and Python scalars, in order) and
returns the fusion outputs in ``fd.add_output`` order. They compute the way the fusion does:
float32 math on upcast inputs, the same constants as the script (the seeds keep the 1/1600
factors of the model they were captured from even though their hidden size is 4096), and a
cast back to the output dtype where the script casts.

``REFS`` maps a corpus path (relative to the repository root) to its reference.

Broadcast note for the LayerNorm seeds: ``broadcast_in_dim(T, shape=[16, 512, 1600],
broadcast_dims=[0, 1, 2])`` on a ``[-1, -1, 1]`` tensor keeps dim 2 a broadcast dim, which
then broadcasts against the 4096-wide tensors it meets. So the references keep such tensors
as ``[B, S, 1]`` and let torch broadcasting do the rest; nothing is expanded to 1600.
Likewise a ``sum`` over a broadcast (extent 1) dim just drops that dim.
"""
from __future__ import annotations

import torch

# Constants exactly as the seed scripts print them (S39/S56/S60/S73 in the fused seed).
_HALF_NEG = -0.5
_TWO = 2.0
_INV_1600 = 1.0 / 1600.0  # S61 = reciprocal(S60 = 1600.00)
_C_0000625 = 0.000625  # S73 = 0.000625000


def _layernorm_bwd_core(x_hat, x_minus_mean_x, x_mean, rstd, weight, grad, x_for_dw):
    """Shared part of both seeds (names follow the segmented seed).

    x_hat:          the tensor multiplied by the broadcast rstd to rebuild x̂ (T0 / T8)
    x_minus_mean_x: the tensor the mean is subtracted from (T7 / T6), float
    x_mean:         the expanded mean (T5), float, [B, S, H] with stride 0 in H
    rstd:           [B, S, 1] float (T3 / T7)
    weight:         float, [B, S, H] (expanded bf16 weight upcast)
    grad:           float, [B, S, H] (upcast bf16 grad)
    x_for_dw:       the tensor used for the row reduction T23/T25 (same as x_hat)
    """
    xhat = x_hat * rstd  # T13 / T15
    grad_bias = grad.sum(dim=(0, 1))  # T16 / T18
    grad_w_in = grad * weight  # T18 / T20
    grad_weight = (grad * xhat).sum(dim=(0, 1))  # T20 / T22
    g_rstd = grad_w_in * rstd  # T22 / T24
    row_dot = (grad_w_in * x_for_dw).sum(dim=2, keepdim=True)  # T24 -> T29, [B, S, 1]
    row_neg = (-g_rstd).sum(dim=2, keepdim=True)  # T31 -> T36, [B, S, 1]
    t41 = (_HALF_NEG * row_dot) * rstd.pow(3.0)  # T38 * T40, [B, S, 1]
    # T42 / T43: sums over the broadcast dim 2 of [B, S, 1] tensors: just the values
    t55 = _TWO * t41  # T48 -> T53 (broadcast), T55
    t60 = (t55 * (x_minus_mean_x - x_mean)) * _INV_1600  # T56, T57, T60
    t72 = _C_0000625 * row_neg  # T65 -> T70, T72
    t74 = g_rstd + (t60 + t72)  # T73, T74
    return grad_bias, grad_weight, t74


def layernorm_bwd_fused(inputs):
    """``corpus/seeds/layernorm_bwd_fused.py`` (nvfuser_fusion_id9): 5 outputs
    [T19 bf16 [H], T23 bf16 [H], T77 f32 [B,S,H], T80 bf16 [B,S,H], T82 bf16 [H]]."""
    s0, t1, t2, t3, t4, t5, t6, t7, t8 = inputs
    mask = t4.float()  # T9
    weight = t1.float()  # T16
    grad = t3.float()  # T17
    grad_bias, grad_weight, t76 = _layernorm_bwd_core(
        x_hat=t8, x_minus_mean_x=t6, x_mean=t5, rstd=t7, weight=weight, grad=grad, x_for_dw=t8
    )
    t77 = t2 + t76
    t79 = (t77 * s0) * mask  # T78, T79
    t81 = t79.sum(dim=(0, 1))
    return [
        grad_bias.to(torch.bfloat16),  # T19
        grad_weight.to(torch.bfloat16),  # T23
        t77,  # T77
        t79.to(torch.bfloat16),  # T80
        t81.to(torch.bfloat16),  # T82
    ]


def layernorm_bwd_segmented(inputs):
    """``corpus/seeds/layernorm_bwd_segmented.py`` (nvfuser_fusion_id14): 3 outputs
    [T17 bf16 [H], T21 bf16 [H], T76 bf16 [B,S,H]]."""
    t0, t1, t2, t3, t4, t5, t6 = inputs
    grad_bias, grad_weight, t74 = _layernorm_bwd_core(
        x_hat=t0, x_minus_mean_x=t6.float(), x_mean=t5, rstd=t3, weight=t1.float(),
        grad=t4.float(), x_for_dw=t0,
    )
    t75 = t2 + t74
    return [
        grad_bias.to(torch.bfloat16),  # T17
        grad_weight.to(torch.bfloat16),  # T21
        t75.to(torch.bfloat16),  # T76
    ]


# Mistral-style config of the RoPE seed issue.
_N_HEAD, _N_QUERY_GROUPS, _HEAD_SIZE, _ROPE_N_ELEM = 16, 4, 32, 8


def rope_qkv_split(inputs):
    """``corpus/rope_qkv_split.py``: q from ``split_qkv``, then ``rope_one_entry`` on it.

    Every elementwise op runs in float32 on bf16 operands and rounds back to bf16, as the
    fusion (and eager bf16 torch) does. One output: the rope'd q, [B, n_head, T, head_size] bf16.
    """
    x, cos, sin = inputs
    b, t, _ = x.shape
    q_per_kv = _N_HEAD // _N_QUERY_GROUPS
    qkv = x.view(b, t, _N_QUERY_GROUPS, q_per_kv + 2, _HEAD_SIZE).permute(0, 2, 3, 1, 4)
    q = qkv[:, :, :q_per_kv].reshape(b, -1, t, _HEAD_SIZE)

    bf16 = torch.bfloat16
    x_rope = q[..., :_ROPE_N_ELEM]
    x1 = x_rope[..., : _ROPE_N_ELEM // 2]
    x2 = x_rope[..., _ROPE_N_ELEM // 2 :]
    rotated = torch.cat(((-x2.float()).to(bf16), x1), dim=-1)
    a = (x_rope.float() * cos.float()).to(bf16)
    c = (rotated.float() * sin.float()).to(bf16)
    roped = (a.float() + c.float()).to(bf16)
    return [torch.cat((roped, q[..., _ROPE_N_ELEM:]), dim=-1)]


REFS = {
    "corpus/seeds/layernorm_bwd_fused.py": layernorm_bwd_fused,
    "corpus/seeds/layernorm_bwd_segmented.py": layernorm_bwd_segmented,
    "corpus/rope_qkv_split.py": rope_qkv_split,
}
