"""Scans (cumsum, cumprod, cummin, cummax) and sorting (argsort, topk).

nvFuser's scans keep the input dtype (``csrc/ops/arith.cpp`` ``scan``: "low-precision input is
not upcast"), where ``torch.cumsum`` would widen Int32 to Int64. The direct frontend's ``init`` is
the value the scan starts from: ``cumsum(x, init=c)[i] = c + x[0] + ... + x[i]``.
"""
from __future__ import annotations

import torch

from .registry import register
from .spec import BOTH, DIRECT_ONLY, OpSpec, Param

_ARG = Param("arg", "tensor")
_DIM = Param("dim", "int")
_INIT = Param("init", "scalar", None, frontends=DIRECT_ONLY)


def _scan(step, combine):
    def ref(ctx, arg, dim, init=None):
        out = step(arg, dim)
        return out if init is None else combine(out, init)
    return ref


def _cumsum(x, dim):
    return torch.cumsum(x, dim, dtype=x.dtype)


def _cumprod(x, dim):
    return torch.cumprod(x, dim, dtype=x.dtype)


for _name, _step, _combine in (
        ("cumsum", _cumsum, lambda out, c: (out + c).to(out.dtype)),
        ("cumprod", _cumprod, lambda out, c: (out * c).to(out.dtype)),
        ("cummin", lambda x, d: torch.cummin(x, d).values, lambda out, c: torch.clamp(out, max=c)),
        ("cummax", lambda x, d: torch.cummax(x, d).values, lambda out, c: torch.clamp(out, min=c))):
    register(OpSpec(_name, "scan", (_ARG, _DIM, _INIT), ref=_scan(_step, _combine),
                    frontends=BOTH if _name == "cumsum" else DIRECT_ONLY,
                    bypass=("arg",), doc=f"torch.{_name}(arg, dim) in the input dtype"))


def _argsort(ctx, arg, dim, descending, stable):
    return torch.argsort(arg, dim=dim, descending=descending, stable=stable)


def _topk(ctx, arg, k, dim, largest, sorted):
    values, indices = torch.topk(arg, int(k), dim=dim, largest=largest, sorted=sorted)
    return values, indices


register(OpSpec("argsort", "scan", (_ARG, _DIM, Param("descending", "bool", False),
                                    Param("stable", "bool", False)),
                ref=_argsort, doc="torch.argsort -> Int indices"))
register(OpSpec("topk", "scan", (_ARG, Param("k", "scalar"), Param("dim", "int", -1),
                                 Param("largest", "bool", True), Param("sorted", "bool", False)),
                ref=_topk, n_outputs=2, doc="torch.topk -> (values, indices)"))
