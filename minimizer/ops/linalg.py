"""Matmul family (matmul, linear) and flash attention (sdpfa_fwd, sdpfa_bwd).

``scaled_mm`` is covered for its per-tensor-scaled form (``torch._scaled_mm``: fp8 operands, one
scale each, an output dtype) and for NVFP4 operands (fp4 with swizzled e4m3 block scales and an
``alpha``, what nvFuser hands its CUTLASS kernel); its block-scaled outputs are not (the reference
refuses ``output_block_scale_size`` > 0 and ``output_gamma``).

``grouped_mm`` (a matmul per group of an extent its offsets split: ``at::_grouped_mm``) is in
``ops/grouped.py``, with the rule its offsets' values must obey; its scaled binding is not covered.
Not covered, for want of a plain torch equivalent (block-scaled grouped GEMMs, grouped
quantisation, custom CUTLASS kernels): ``cutlass_nvfp4_grouped_mm``, ``nv_grouped_block_quantize``,
``preprocess_grouped_matmul_input_sf``. A script using them is unknown to the catalog
(``nv_block_quantize``: ``ops/quantize.py``).

The attention references are the math that flash attention computes (fp32 scores and softmax,
``logsumexp`` in Float, outputs in the input dtype), written out rather than calling torch's
SDPA so that they run on ``meta`` tensors and so that the backward can start from the given
``output`` and ``logsumexp`` as the flash backward kernel does. ``philox_seed`` (UInt64 ``[2]``)
and ``philox_offset`` (UInt64, 0-dim) are the torch >= 2.7 layout, filled with zeros: nvFuser's
values come from the CUDA generator and cannot be reproduced. With ``dropout_p > 0`` the forward
draws its own mask from ``ctx.generator``, and the backward, which would need that mask, refuses.
"""
from __future__ import annotations

import contextvars
import math

import torch
import torch.nn.functional as F

from . import fp4
from .dims import NOT_FOLLOWED
from .registry import register
from .spec import DIRECT, DIRECT_ONLY, LEGACY_ONLY, OpSpec, Param, not_generated

# not generated (operand shapes must fit each other), and FewerDims does not follow a dim through them
#: what nvFuser's expression evaluator computes with ATen: every op of this module
_HOST = frozenset({"host-evaluated"})
_OPAQUE = dict(generate=not_generated("not added to the generator yet (operands of fitting shapes)"),
               dim_rule=NOT_FOLLOWED)


def _one_dtype(op: str, *operands) -> None:
    """torch's matmul kernels refuse operands of two dtypes, but its meta kernels do not: checked
    here so the static check (meta tensors) refuses what eager torch would."""
    got = {t.dtype for t in operands if isinstance(t, torch.Tensor)}
    if len(got) > 1:
        raise ValueError(f"{op} needs operands of one dtype, got {', '.join(sorted(str(d) for d in got))}")


def _matmul(ctx, arg1, arg2):
    _one_dtype("matmul", arg1, arg2)
    return torch.matmul(arg1, arg2)


def _linear(ctx, arg1, arg2, bias=None):
    _one_dtype("linear", arg1, arg2, bias)
    return F.linear(arg1, arg2, bias)


register(OpSpec("matmul", "matmul", (Param("arg1", "tensor"), Param("arg2", "tensor")),
                ref=_matmul, doc="torch.matmul", tags=_HOST, **_OPAQUE))
register(OpSpec("linear", "matmul", (Param("arg1", "tensor"), Param("arg2", "tensor"),
                                     Param("bias", "tensor", None)),
                ref=_linear, doc="F.linear(arg1, arg2, bias); arg2 is [out, in]", tags=_HOST, **_OPAQUE))


#: ``RunOptions.narrow_attention``: another legitimate result of flash attention for
#: ``compare.judge``. The flash kernels ATen ships (``aten/src/ATen/native/transformers/cuda/
#: flash_attn``, Tri Dao's FlashAttention-2, which nvFuser's ``sdpfa_fwd``/``sdpfa_bwd`` call) keep
#: scores, softmax and accumulators in fp32 but feed the tensor-core matmuls operands of the input
#: dtype: the forward converts P (``convert_type<Element>`` of the scores' exponentials) before
#: P V, the backward converts P before dV = P^T dO and dS (its comment: "Convert dS from fp32 to
#: fp16") before dQ = dS K and dK = dS^T Q. The fp64 reference and its perturbed inputs round
#: none of these; with this set, the references round P and dS to the query's dtype there. The
#: backward's P is normalised (``exp(scores - logsumexp)``) as the kernel's is; the forward
#: kernel rounds ``exp(scores - running max)`` and normalises after P V, the reference rounds the
#: normalised P: a rounding of the same relative size, not bit for bit the kernel's.
NARROW_P = contextvars.ContextVar("narrow_attention", default=False)


def _narrow_p(x, dtype):
    """``x`` rounded to ``dtype`` (kept in its own dtype) where ``NARROW_P`` is set: what a flash
    kernel hands its next matmul. Never while Dynamo traces (``ContextVar.get`` is not traceable)."""
    if torch.compiler.is_compiling() or not NARROW_P.get():
        return x
    return x.to(dtype).to(x.dtype)


def _scores(query, key, scale, is_causal):
    """fp32 ``q @ k^T * scale`` with the causal (top-left aligned) mask applied."""
    s = torch.matmul(query.float(), key.float().transpose(-2, -1)) * scale
    if is_causal:
        L, S = s.shape[-2:]
        keep = torch.ones(L, S, dtype=torch.bool, device=s.device).tril()
        s = s.masked_fill(~keep, float("-inf"))
    return s


def _flash_limits(ctx, op: str, *qkv) -> None:
    """What the flash-attention kernels nvFuser calls refuse at run time: a head dim not a
    multiple of 8 (``SdpaFwdOp``/``SdpaBwdOp::evaluate`` of the direct frontend's nvFuser; the
    legacy frontend's padded it to 8 itself), a last dim that is not contiguous (``mha_fwd``'s
    check)."""
    if qkv[0].shape[-1] % 8 and ctx.frontend == DIRECT:
        raise ValueError(f"{op}: Flash attention requires the last dimension to be a multiple of 8, "
                         f"but got: {qkv[0].shape[-1]}")
    if any(t.shape[-1] > 1 and t.stride(-1) != 1 for t in qkv):
        raise ValueError(f"{op}: Input tensor must have contiguous last dimension")


def _sdpfa_fwd(ctx, query, key, value, bias=None, mask=None, dropout_p=None, is_causal=None,
               scale=None):
    # Scripts from before 2026-01 pass (q, k, v, dropout_p, is_causal, scale) positionally, which
    # the binder files under bias, mask, dropout_p: numbers there mean the old layout.
    if not isinstance(bias, (torch.Tensor, type(None))) or not isinstance(mask, (torch.Tensor, type(None))):
        bias, mask, dropout_p, is_causal, scale = None, None, bias, mask, dropout_p
    if not query.ndim == key.ndim == value.ndim or query.ndim < 4:
        raise ValueError(f"sdpfa_fwd needs query, key, value of one rank >= 4, got "
                         f"{query.ndim}, {key.ndim}, {value.ndim}")
    if not query.dtype == key.dtype == value.dtype:
        raise TypeError("sdpfa_fwd: query, key and value must have one dtype")
    if bias is None and mask is None:   # nvFuser's flash path (with a bias: ATen's math kernel)
        _flash_limits(ctx, "sdpfa_fwd", query, key, value)
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    s = _scores(query, key, scale, bool(is_causal))
    if mask is not None:
        if mask.dtype != torch.bool:
            raise TypeError("sdpfa_fwd: mask must be Bool")
        mask_bias = torch.where(mask, 0.0, float("-inf")).to(query.dtype)
        bias = mask_bias if bias is None else bias + mask_bias
    if bias is not None:
        s = s + bias.float()
    lse = torch.logsumexp(s, dim=-1)
    p = torch.exp(s - lse.unsqueeze(-1))
    if dropout_p:
        keep = torch.rand(p.shape, generator=ctx.generator if p.device.type != "meta" else None,
                          device=p.device) >= dropout_p
        p = p * keep / (1.0 - dropout_p)
    out = torch.matmul(_narrow_p(p, query.dtype), value.float()).to(query.dtype)
    seed = torch.zeros(2, dtype=torch.uint64, device=query.device)
    offset = torch.zeros((), dtype=torch.uint64, device=query.device)
    return out, lse, seed, offset


def _sdpfa_bwd(ctx, grad_output, query, key, value, output, logsumexp, dropout_p, is_causal,
               philox_seed, philox_offset, scale):
    """The flash backward: recompute P from the scores and ``logsumexp``, then
    dV = P^T dO, dS = P * (dO V^T - rowsum(dO * O)), dQ = dS K * scale, dK = dS^T Q * scale."""
    if grad_output.ndim != 4:   # one device: no sharded first dim to squeeze (SdpaBwdOp::evaluate)
        raise ValueError(f"sdpfa_bwd: Expected 4D but found {list(grad_output.shape)}")
    if not grad_output.dtype == query.dtype == key.dtype == value.dtype == output.dtype:
        raise TypeError("sdpfa_bwd: grad_output, query, key, value and output must have one dtype")
    _flash_limits(ctx, "sdpfa_bwd", query, key, value)
    if dropout_p and query.device.type != "meta":
        raise NotImplementedError("sdpfa_bwd with dropout needs the forward's Philox mask, "
                                  "which the reference cannot reproduce")
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else float(scale)
    p = torch.exp(_scores(query, key, scale, bool(is_causal)) - logsumexp.float().unsqueeze(-1))
    do, v = grad_output.float(), value.float()
    dv = torch.matmul(_narrow_p(p, query.dtype).transpose(-2, -1), do)
    delta = (do * output.float()).sum(-1, keepdim=True)
    ds = _narrow_p(p * (torch.matmul(do, v.transpose(-2, -1)) - delta), query.dtype)
    dq = torch.matmul(ds, key.float()) * scale
    dk = torch.matmul(ds.transpose(-2, -1), query.float()) * scale
    return dq.to(query.dtype), dk.to(key.dtype), dv.to(value.dtype)


register(OpSpec("sdpfa_fwd", "attention", (
    Param("query", "tensor"), Param("key", "tensor"), Param("value", "tensor"),
    Param("bias", "tensor", None), Param("mask", "tensor", None),
    Param("dropout_p", "scalar", None), Param("is_causal", "scalar", None), Param("scale", "scalar", None),
), ref=_sdpfa_fwd, n_outputs=4, tags=frozenset({"random_if_dropout"}) | _HOST,
    doc="flash attention forward -> (out, logsumexp, philox_seed, philox_offset)", **_OPAQUE))

_BWD_HEAD = tuple(Param(n, "tensor") for n in
                  ("grad_output", "query", "key", "value", "output", "logsumexp"))
register(OpSpec("sdpfa_bwd", "attention", _BWD_HEAD + (
    Param("dropout_p", "scalar", None, frontends=LEGACY_ONLY),
    Param("dropout_p", "scalar", frontends=DIRECT_ONLY),
    Param("is_causal", "scalar", None, frontends=LEGACY_ONLY),
    Param("is_causal", "scalar", frontends=DIRECT_ONLY),
    Param("philox_seed", "tensor"), Param("philox_offset", "tensor"),
    Param("scale", "scalar", None, frontends=LEGACY_ONLY),
    Param("scale", "scalar", frontends=DIRECT_ONLY),
), ref=_sdpfa_bwd, n_outputs=3, tags=_HOST, doc="flash attention backward -> (grad_query, grad_key, grad_value)",
    **_OPAQUE))


def _scaled_mm(ctx, mat1, mat2, scale1, scale2, alpha=None, bias=None, beta=None, dtype="BFloat16",
               output_block_scale_size=0, output_block_scale_dtype="BFloat16", output_gamma=False):
    from ..dtypes import to_torch
    if fp4.is_fp4(mat1) or fp4.is_fp4(mat2):
        if output_block_scale_size or output_gamma or bias is not None or beta is not None:
            raise NotImplementedError("scaled_mm: NVFP4 operands with a bias, beta or block-scaled output "
                                      "have no reference")
        return _nvfp4_scaled_mm(mat1, mat2, scale1, scale2, alpha, to_torch(getattr(dtype, "name", dtype))), None, None
    if output_block_scale_size or output_gamma or alpha is not None or beta is not None:
        raise NotImplementedError("scaled_mm: only the per-tensor-scaled form has a torch reference")
    out_dtype = to_torch(getattr(dtype, "name", dtype))
    _scaled_mm_rules(mat1, mat2, scale1, scale2)   # on every device: what cuBLAS refuses, the CPU kernel may not
    if mat1.device.type == "meta":
        return torch.empty((mat1.shape[0], mat2.shape[1]), dtype=out_dtype, device="meta"), None, None
    out = torch._scaled_mm(mat1, mat2, scale_a=scale1, scale_b=scale2, bias=bias, out_dtype=out_dtype)
    return out, None, None


_FP8 = (torch.float8_e4m3fn, torch.float8_e5m2)


def _round_up(n: int, m: int) -> int:
    return (n + m - 1) // m * m


def _nvfp4_scaled_mm(mat1, mat2, scale1, scale2, alpha, out_dtype):
    """NVFP4 ``[M, K] @ [K, N]`` with e4m3 scales per 16 along K, each operand's scales padded to
    128x4 tiles and swizzled (CUTLASS's layout), times ``alpha``: each operand dequantized, one
    product in Double, rounded once to ``dtype``."""
    _nvfp4_rules(mat1, mat2, scale1, scale2, alpha)
    (m, k), n = mat1.shape, mat2.shape[1]
    if mat1.device.type == "meta":
        return torch.empty((m, n), dtype=out_dtype, device="meta")
    a = fp4.decode(mat1).double() * _unswizzle(scale1, m, k // 16).double().repeat_interleave(16, 1)
    b = fp4.decode(mat2).double() * _unswizzle(scale2, n, k // 16).double().repeat_interleave(16, 1).t()
    out = a @ b
    if alpha is not None:
        out = out * alpha.double()
    return out.to(out_dtype)


def _unswizzle(scales, rows: int, cols: int):
    """The ``[rows, cols]`` scales out of their padded, swizzled 128x4 tiles."""
    rp, cp = scales.shape
    return scales.float().reshape(rp // 128, cp // 4, 32, 4, 4).transpose(1, 3).reshape(rp, cp)[:rows, :cols]


def _nvfp4_rules(mat1, mat2, scale1, scale2, alpha) -> None:
    """What nvFuser's NVFP4 GEMM checks (``validateInputsNvfp4ScaledMm``): two fp4 matrices, the
    first row-major and the second column-major, K and N multiples of 32, e4m3 scales of exactly
    the padded shapes, a Float alpha."""
    if not (fp4.is_fp4(mat1) and fp4.is_fp4(mat2)) or mat1.ndim != 2 or mat2.ndim != 2 \
            or mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"scaled_mm: expected two NVFP4 matrices [M, K] @ [K, N], got {mat1.dtype} "
                           f"{list(mat1.shape)} @ {mat2.dtype} {list(mat2.shape)}")
    (m, k), n = mat1.shape, mat2.shape[1]
    if (m > 1 and mat1.stride(1) != 1) or (n > 1 and mat2.stride(0) != 1):
        raise RuntimeError("scaled_mm: only a row-major first and a column-major second operand are supported")
    if k % 32 or n % 32:
        raise RuntimeError(f"scaled_mm: K and N must be multiples of 32 for NVFP4, got {k} and {n}")
    for name, sc, rows in (("scale1", scale1, m), ("scale2", scale2, n)):
        want = (_round_up(rows, 128), _round_up(k // 16, 4))
        if not isinstance(sc, torch.Tensor) or sc.dtype != torch.float8_e4m3fn or tuple(sc.shape) != want:
            got = f"{sc.dtype} {list(sc.shape)}" if isinstance(sc, torch.Tensor) else type(sc).__name__
            raise RuntimeError(f"scaled_mm: {name} must be Float8_e4m3fn padded and swizzled to {list(want)}, got {got}")
    if alpha is not None and (alpha.dtype not in (torch.float32, torch.float64) or alpha.numel() != 1):
        raise RuntimeError("scaled_mm: alpha must be one Float")


def _scaled_mm_rules(mat1, mat2, scale1, scale2) -> None:
    """What ``torch._scaled_mm`` checks at run time and its meta kernel does not, so that the
    static check refuses the programs eager torch would (mutants of an fp8 seed: a scale cast to
    Half, a ``contiguity`` or ``layout`` change of an operand, a shrunk extent would each be filed
    as fmin's own finding otherwise): 2-D fp8 operands, not both e5m2; the first row-major, the
    second column-major, neither with an expanded (stride-0) dim; K and N multiples of 16; one
    Float scale per operand."""
    if mat1.ndim != 2 or mat2.ndim != 2 or mat1.shape[1] != mat2.shape[0]:
        raise RuntimeError(f"scaled_mm: expected [M, K] @ [K, N], got {list(mat1.shape)} @ {list(mat2.shape)}")
    if mat1.dtype not in _FP8 or mat2.dtype not in _FP8 or mat1.dtype == mat2.dtype == torch.float8_e5m2:
        raise RuntimeError(f"scaled_mm: operands must be fp8 (not both e5m2), got {mat1.dtype} and {mat2.dtype}")
    if (mat1.shape[0] > 1 and mat1.stride(1) != 1) or (mat2.shape[1] > 1 and mat2.stride(0) != 1):
        raise RuntimeError("scaled_mm: only a row-major first and a column-major second operand are supported")
    # an expanded (stride-0) row or column is neither: torch says "self must be row_major, got stride (0, 1)"
    if (mat1.shape[0] > 1 and mat1.stride(0) < mat1.shape[1]) or (mat2.shape[1] > 1 and mat2.stride(1) < mat2.shape[0]):
        raise RuntimeError("scaled_mm: an operand's rows (first) or columns (second) overlap in memory")
    if mat1.shape[1] % 16 or mat2.shape[1] % 16:
        raise RuntimeError(f"scaled_mm: K and N must be multiples of 16, got {mat1.shape[1]} and {mat2.shape[1]}")
    for sc in (scale1, scale2):
        if not isinstance(sc, torch.Tensor) or sc.dtype != torch.float32 or sc.numel() != 1:
            raise RuntimeError("scaled_mm: invalid scaling configuration (one Float scale per operand)")


register(OpSpec("scaled_mm", "matmul", (
    Param("mat1", "tensor"), Param("mat2", "tensor"), Param("scale1", "tensor"), Param("scale2", "tensor"),
    Param("alpha", "tensor", None), Param("bias", "tensor", None), Param("beta", "tensor", None),
    Param("dtype", "dtype", "BFloat16"), Param("output_block_scale_size", "int", 0),
    Param("output_block_scale_dtype", "dtype", "BFloat16"), Param("output_gamma", "bool", False),
), ref=_scaled_mm, n_outputs=3, doc="torch._scaled_mm with per-tensor scales; (out, block_scale, gamma)",
    tags=frozenset({"format-dtype"}) | _HOST, **_OPAQUE))
