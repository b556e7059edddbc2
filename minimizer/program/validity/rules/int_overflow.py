"""int-overflow: an integer result fits its dtype (recomputed in float64 by the reference).

Both ends count: a result below the dtype's minimum (``-x`` of a small value, a sub or a product
going down) is as undefined as one above its maximum. float64 holds every Int32 result exactly,
but not an Int64 one within a few hundred of its ends: ``-min`` (2**63) and ``max`` both round to
2**63, ``min - 1`` and ``min`` both to -2**63. There the sign of the result torch computed tells
them apart: one that left the range wrapped around to the other sign."""
from __future__ import annotations

import torch

from ....ops import Ctx
from ..base import Rule, register
from ..reading import bits, dtype_name


@register
class IntOverflow(Rule):
    name = "int-overflow"
    statement = ("an integer result fits its dtype (computed in float64 by the reference): signed "
                 "overflow is undefined in C++ and CUDA")
    order = 80
    tags = frozenset({"int-arith"})

    def after(self, s, spec, args, results):
        out = results[0] if isinstance(results, tuple) else results
        if not isinstance(out, torch.Tensor) or bits(out.dtype) is None or out.dtype == torch.uint8:
            return None
        wide = {k: (v.to(torch.float64) if isinstance(v, torch.Tensor) and bits(v.dtype) else v)
                for k, v in args.items()}
        exact = spec.ref(Ctx(device=out.device, frontend="nvfuser_direct"), **wide)
        exact = exact[0] if isinstance(exact, tuple) else exact
        if not isinstance(exact, torch.Tensor) or not exact.is_floating_point():
            return None
        info = torch.iinfo(out.dtype)
        end = 2.0 ** (info.bits - 1)   # the float64 of -min, and of max rounded where it cannot hold it
        above = (exact > info.max) | ((exact >= end) & (out < 0))
        below = (exact < info.min) | ((exact <= -end) & (out >= 0))
        if exact.numel() and bool((above | below).any()):
            return (f"fd.ops.{s.op} gives {dtype_name(out)} values beyond its range "
                    f"(up to {float(exact.abs().max()):.3g})")
        return None
