"""cast-out-of-range: a float cast to an integer dtype is finite and within its range."""
from __future__ import annotations

import torch

from ..base import Rule, register
from ..reading import bits, dtype_name


@register
class CastOutOfRange(Rule):
    name = "cast-out-of-range"
    statement = ("a float cast to an integer dtype is finite and within its range: other "
                 "conversions are undefined in C++ and CUDA")
    order = 100
    tags = frozenset({"dtype-cast"})

    def after(self, s, spec, args, results):
        x = args.get("arg")
        out = results[0] if isinstance(results, tuple) else results
        if not isinstance(x, torch.Tensor) or not isinstance(out, torch.Tensor) or not x.is_floating_point():
            return None
        if bits(out.dtype) is None or not x.numel():
            return None
        info = torch.iinfo(out.dtype)
        xd = x.to(torch.float64)
        bad = ~torch.isfinite(xd) | (xd.trunc() > info.max) | (xd.trunc() < info.min)
        if bool(bad.any()):
            return (f"fd.ops.cast of {dtype_name(x)} to {dtype_name(out)}: "
                    f"{int(bad.sum())} values are not finite or out of range")
        return None
