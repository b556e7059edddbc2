"""int-overflow: an integer result fits its dtype (recomputed in float64 by the reference)."""
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
        if exact.numel() and bool(((exact > info.max) | (exact < info.min)).any()):
            return (f"fd.ops.{s.op} gives {dtype_name(out)} values beyond its range "
                    f"(up to {float(exact.abs().max()):.3g})")
        return None
