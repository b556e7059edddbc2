"""Block quantization: ``nv_block_quantize`` (NVFP4 and MXFP8).

The reference restates nvFuser's runtime functions (runtime/block_quantization_kernels.cu, the
casts of runtime/casts.cu) in Float arithmetic, block by block along the last dim:

* NVFP4 (``dtype`` Float4_e2m1fn, blocks of 16): ``s = amax / 6`` (times ``global_scale``),
  clamped to Float's max and rounded to e4m3 (saturating: the block scale); each value is
  multiplied by ``1 / (s_e4m3 / global_scale)`` (capped at Float's max) and rounded to fp4.
* MXFP8 (``dtype`` Float8_e4m3fn, blocks of 32): the scale is ``amax / 448`` rounded up to a power
  of two (e8m0, saturating); each value is multiplied by its inverse (1 where the scale is
  2^-127, as the runtime's ``exp2f_rcp``) and rounded to e4m3, saturating.

The max ignores NaN (CUDA's ``fmax``). ``swizzle_block_scales`` writes the scales in the 128x4
tile order CUTLASS reads (``[M/128, K/64, 32, 4, 4]`` of ``[M, K/16]``), which the caller receives
as an ``[M, K/16]`` tensor in that memory order; where M is not a multiple of 128 or K/16 of 4 the
padding nvFuser allocates is left uninitialised, so the reference refuses those shapes, as it
refuses a last dim that is not a whole number of blocks (what nvFuser does there is not
established). ``nv_grouped_block_quantize`` and ``preprocess_grouped_matmul_input_sf`` (per-group
offsets into padded scale layouts) are not covered.
"""
from __future__ import annotations

import torch

from . import fp4
from .dims import NOT_FOLLOWED
from .registry import register
from .spec import DIRECT_ONLY, OpSpec, Param, not_generated

_F32_MAX = torch.finfo(torch.float32).max
_E4M3_MAX = 448.0
_INPUTS = (torch.float32, torch.bfloat16, torch.float16)


def _rules(input, global_scale, swizzle, block_size, dtype) -> None:
    """What ``blockQuantize`` (csrc/ops/arith.cpp) refuses while the fusion is defined."""
    if dtype not in ("Float4_e2m1fn", "Float8_e4m3fn"):
        raise ValueError(f"nv_block_quantize: output dtype must be Float4_e2m1fn or Float8_e4m3fn, got {dtype}")
    if block_size != (16 if dtype == "Float4_e2m1fn" else 32):
        raise ValueError(f"nv_block_quantize: block size must be {16 if dtype == 'Float4_e2m1fn' else 32} "
                         f"for {dtype}, got {block_size}")
    if dtype == "Float8_e4m3fn" and (swizzle or global_scale is not None):
        raise ValueError("nv_block_quantize: Float8_e4m3fn takes no swizzle_block_scales and no global_scale")
    # the fp64 reference runs Float inputs in Double: only the static check (meta) sees the program's own
    allowed = _INPUTS if input.device.type == "meta" else _INPUTS + (torch.float64,)
    if input.dtype not in allowed or input.ndim == 0:
        raise TypeError(f"nv_block_quantize expects a Float, BFloat16 or Half tensor of rank >= 1, "
                        f"got {input.dtype} of rank {input.ndim}")
    if global_scale is not None and (global_scale.ndim != 0 or global_scale.dtype not in (torch.float32, torch.float64)):
        raise TypeError("nv_block_quantize: global_scale must be a 0-dim Float tensor")
    if input.shape[-1] % block_size:
        raise NotImplementedError(f"nv_block_quantize: a last dim of {input.shape[-1]} is not a whole number "
                                  f"of {block_size}-element blocks")
    if swizzle and (input.ndim != 2 or input.shape[0] % 128 or (input.shape[-1] // block_size) % 4):
        raise NotImplementedError("nv_block_quantize: swizzled scales of a shape that is not 2-D with whole "
                                  "128x4 tiles leave padding uninitialised")


def _nv_block_quantize(ctx, input, global_scale=None, swizzle_block_scales=False, block_size=16,
                       dtype="Float4_e2m1fn"):
    _rules(input, global_scale, bool(swizzle_block_scales), int(block_size), dtype)
    nvfp4 = dtype == "Float4_e2m1fn"
    scale_shape = (*input.shape[:-1], input.shape[-1] // block_size)
    if input.device.type == "meta":
        q = torch.empty(input.shape, dtype=fp4.CARRIER if nvfp4 else torch.float8_e4m3fn, device="meta")
        return q, torch.empty(scale_shape, dtype=torch.float8_e4m3fn if nvfp4 else torch.float8_e8m0fnu,
                              device="meta")
    x = input.to(torch.float32).reshape(*scale_shape, block_size)
    amax = torch.where(x.isnan(), -torch.inf, x.abs()).amax(-1)
    if nvfp4:
        q, scales = _nvfp4(x, amax, None if global_scale is None else global_scale.to(torch.float32))
    else:
        q, scales = _mxfp8(x, amax)
    q = q.reshape(input.shape)
    return q, (_swizzle_128_4(scales) if swizzle_block_scales else scales)


def _to_e4m3(v: torch.Tensor) -> torch.Tensor:
    """``cvt.rn.satfinite`` to e4m3: nearest even, finite values saturate at 448, NaN stays."""
    return v.clamp(-_E4M3_MAX, _E4M3_MAX).to(torch.float8_e4m3fn)


def _nvfp4(x, amax, global_scale):
    s = amax / 6.0
    if global_scale is not None:
        s = s * global_scale
    s8 = _to_e4m3(s.clamp(max=_F32_MAX))
    sf = s8.to(torch.float32)
    if global_scale is not None:
        sf = sf * (1.0 / global_scale)
    enc = (1.0 / sf).clamp(max=_F32_MAX)
    return fp4.encode(x * enc.unsqueeze(-1)), s8


def _mxfp8(x, amax):
    v = amax * (1.0 / _E4M3_MAX)
    raw = _e8m0_round_up(v)
    inv_bits = ((254 - raw.to(torch.int32)) << 23).view(torch.float32)
    inv = torch.where(raw == 0, torch.ones_like(inv_bits), inv_bits)
    return _to_e4m3(x * inv.unsqueeze(-1)), raw.view(torch.float8_e8m0fnu)


def _e8m0_round_up(v: torch.Tensor) -> torch.Tensor:
    """``cvt.rp.satfinite.ue8m0``: the biased exponent of the least power of two >= v, within
    [2^-127, 2^127]; NaN is 0xFF."""
    mant, exp = torch.frexp(v)
    up = torch.where(mant == 0.5, exp - 1, exp).to(torch.int32)   # ceil(log2 v)
    raw = (up + 127).clamp(0, 254)
    raw = torch.where(v > 0, raw, torch.zeros_like(raw))
    raw = torch.where(v.isinf(), torch.full_like(raw, 254), raw)
    return torch.where(v.isnan(), torch.full_like(raw, 255), raw).to(torch.uint8)


def _swizzle_128_4(scales: torch.Tensor) -> torch.Tensor:
    m, k = scales.shape
    return scales.reshape(m // 128, 4, 32, k // 4, 4).transpose(1, 3).reshape(m, k)


register(OpSpec("nv_block_quantize", "special", (
    Param("input", "tensor"), Param("global_scale", "tensor", None), Param("swizzle_block_scales", "bool", False),
    Param("block_size", "int", 16), Param("dtype", "dtype", "Float4_e2m1fn"),
), ref=_nv_block_quantize, n_outputs=2, frontends=DIRECT_ONLY, tags=frozenset({"format-dtype"}),
    doc="block quantization -> (quantized values, block scales): NVFP4 (e4m3 scales per 16) or MXFP8 "
        "(e8m0 scales per 32)",
    generate=not_generated("not added to the generator yet (block-sized last dims, a 0-dim Float scale)"),
    dim_rule=NOT_FOLLOWED))
