"""nvFuser's ``Float4_e2m1fn`` in torch: the codes, their rounding, and the packed form at the
fusion's boundary.

torch has only the packed ``float4_e2m1fn_x2`` (two codes per byte, no arithmetic, not even a
copy to float on the CPU). nvFuser reads such a tensor as a ``Float4_e2m1fn`` tensor whose
innermost allocation dim holds twice the elements (``getLastDimAdjustment``: the low nibble is
the even element), and writes its fp4 outputs back that way. Inside a fusion the reference keeps
one code per byte in a ``float4_e2m1fn_x2`` tensor of the logical shape ("unpacked"), so that
shape ops (reshape, permute, broadcast, cat) work on it unchanged and nothing can compute on it
by accident; ``unpack`` and ``pack`` convert at the boundary, ``encode``/``decode`` at casts.

A cast to fp4 is ``cvt.rn.satfinite.e2m1x2.f32`` (runtime/casts.cu): round to nearest even onto
the magnitudes below, saturating at 6; Half/BFloat16/Double go through Float first.
"""
from __future__ import annotations

import torch

#: the eight magnitudes of e2m1 by code (the sign is bit 3)
MAGNITUDES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
CARRIER = torch.float4_e2m1fn_x2
_MIDPOINTS = (0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0)
#: a tie at midpoint i rounds up where code i + 1 is even (its mantissa bit is 0)
_TIE_UP = tuple((i + 1) % 2 == 0 for i in range(len(_MIDPOINTS)))


def is_fp4(t) -> bool:
    return isinstance(t, torch.Tensor) and t.dtype == CARRIER


def encode(x: torch.Tensor) -> torch.Tensor:
    """Float values -> unpacked fp4 codes (round to nearest even, saturating; NaN as +6, what
    ``satfinite`` makes of it is not established)."""
    if x.device.type == "meta":
        return torch.empty_like(x, dtype=CARRIER)
    f = x.to(torch.float32)
    a = f.abs().nan_to_num(nan=6.0)
    code = torch.zeros(f.shape, dtype=torch.uint8, device=f.device)
    for m, up in zip(_MIDPOINTS, _TIE_UP):
        code += (a > m) if not up else (a >= m)
    sign = (torch.signbit(f) & ~f.isnan()).to(torch.uint8) << 3
    return (code | sign).view(CARRIER)


def decode(codes: torch.Tensor) -> torch.Tensor:
    """Unpacked fp4 codes -> their values in Float."""
    if codes.device.type == "meta":
        return torch.empty_like(codes, dtype=torch.float32)
    c = codes.view(torch.uint8).to(torch.int64)
    mag = torch.tensor(MAGNITUDES, dtype=torch.float32, device=c.device)[c & 7]
    return torch.where((c & 8) != 0, -mag, mag)


def innermost(t: torch.Tensor) -> int:
    """The dim nvFuser packs: the innermost of the layout (smallest stride, the last on ties)."""
    if t.ndim == 0:
        raise ValueError("a Float4_e2m1fn tensor needs at least one dim")
    return min(range(t.ndim), key=lambda d: (t.stride(d) if t.shape[d] > 1 else float("inf"), -d))


def unpack(t: torch.Tensor, dim: int) -> torch.Tensor:
    """A packed ``float4_e2m1fn_x2`` tensor -> one code per element, ``dim`` twice as long."""
    moved = t.movedim(dim, -1)
    shape = (*moved.shape[:-1], 2 * moved.shape[-1])
    if t.device.type == "meta":
        return torch.empty(shape, dtype=CARRIER, device="meta").movedim(-1, dim)
    b = moved.contiguous().view(torch.uint8)
    out = torch.stack((b & 0xF, b >> 4), dim=-1).reshape(shape)
    return out.view(CARRIER).movedim(-1, dim)


def pack(t: torch.Tensor, dim: int) -> torch.Tensor:
    """One code per element -> packed ``float4_e2m1fn_x2``, ``dim`` (of even extent) halved."""
    if t.shape[dim] % 2:
        raise ValueError(f"a Float4_e2m1fn output's innermost dim must have an even extent, got {t.shape[dim]}")
    moved = t.movedim(dim, -1)
    shape = (*moved.shape[:-1], moved.shape[-1] // 2)
    if t.device.type == "meta":
        return torch.empty(shape, dtype=CARRIER, device="meta").movedim(-1, dim)
    pairs = moved.contiguous().view(torch.uint8).reshape(*shape, 2)
    return (pairs[..., 0] | (pairs[..., 1] << 4)).view(CARRIER).movedim(-1, dim)
