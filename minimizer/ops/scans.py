"""Scans (cumsum, cumprod, cummin, cummax) and sorting (argsort, topk).

nvFuser's scans keep the input dtype (``csrc/ops/arith.cpp`` ``scan``: "low-precision input is
not upcast"), where ``torch.cumsum`` would widen Int32 to Int64. The direct frontend's ``init`` is
the value the scan starts from: ``cumsum(x, init=c)[i] = c + x[0] + ... + x[i]``.
"""
from __future__ import annotations

import contextvars

import torch

from ..model import Ref, Stmt
from .dims import Reach, dim_rule, one_dim
from .registry import lookup, register
from .spec import BOTH, DIRECT_ONLY, OpSpec, Param, generated, not_generated

_ARG = Param("arg", "tensor")
_DIM = Param("dim", "int")
_INIT = Param("init", "scalar", None, frontends=DIRECT_ONLY)

def _write_scan(B, name, x, P, force) -> bool:
    """How the fuzzer writes a scan (``Gen.write``): along a drawn dim; the result has no
    broadcast dims."""
    B.op(name, (Ref(x.name),), (("dim", P(len(x.shape))),), bcast=tuple(False for _ in x.shape))
    return True


# what the fuzzer draws, simplest first (``Gen``); every op here has one ``dim`` (FewerDims: ``SCAN``)
GEN = {**generated("scan", _write_scan, f="cumsum cumprod cummax cummin", i="cumsum cumprod cummax cummin"),
       **dict.fromkeys(("argsort", "topk"), not_generated(
           "not added to the generator yet"))}


@dim_rule("scan", reads=("arg", "dim"))
def SCAN(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """``dim`` renumbered (its default where it is not written: topk's -1); a scan along the
    dropped dim is refused."""
    r, p = at.operand(s)
    dim = lookup(s.call).param("dim")
    return one_dim(s, r, p, None if dim.required else dim.default), p


def _op(name, params, ref, doc, **kw):
    register(OpSpec(name, "scan", params, ref=ref, doc=doc, generate=GEN[name], dim_rule=SCAN, **kw))


def _scan(step, combine):
    def ref(ctx, arg, dim, init=None):
        out = step(arg, dim)
        return out if init is None else combine(out, init)
    return ref


#: half/bfloat16 scans accumulate in their own dtype, rounding at every step, as a scan kernel may
#: (nvFuser's does): ``RunOptions.narrow_scans``, another legitimate result for ``compare.judge``
#: (eager accumulates in float, so an overflow on the way is lost there and kept here)
NARROW = contextvars.ContextVar("narrow_scans", default=False)


def _narrow(x, dim, combine):
    """The scan of ``x`` along ``dim``, one rounding to ``x.dtype`` per step."""
    acc = x.select(dim, 0)
    out = [acc]
    for i in range(1, x.shape[dim]):
        acc = combine(acc, x.select(dim, i)).to(x.dtype)
        out.append(acc)
    return torch.stack(out, dim)


def _narrowed(x) -> bool:
    """Whether this scan rounds per step (a reference run asked for it). Never while Dynamo traces
    the catalog for the Inductor translation: it cannot trace ``ContextVar.get``, and a compiled
    program is never the narrow reference."""
    if torch.compiler.is_compiling():
        return False
    return NARROW.get() and x.dtype in (torch.float16, torch.bfloat16) and x.dim() > 0 and x.numel() > 0


def _cumsum(x, dim):
    return _narrow(x, dim, torch.add) if _narrowed(x) else torch.cumsum(x, dim, dtype=x.dtype)


def _cumprod(x, dim):
    return _narrow(x, dim, torch.mul) if _narrowed(x) else torch.cumprod(x, dim, dtype=x.dtype)


for _name, _step, _combine in (
        ("cumsum", _cumsum, lambda out, c: (out + c).to(out.dtype)),
        ("cumprod", _cumprod, lambda out, c: (out * c).to(out.dtype)),
        ("cummin", lambda x, d: torch.cummin(x, d).values, lambda out, c: torch.clamp(out, max=c)),
        ("cummax", lambda x, d: torch.cummax(x, d).values, lambda out, c: torch.clamp(out, min=c))):
    _op(_name, (_ARG, _DIM, _INIT), _scan(_step, _combine), f"torch.{_name}(arg, dim) in the input dtype",
        frontends=BOTH if _name == "cumsum" else DIRECT_ONLY, bypass=("arg",))


def _argsort(ctx, arg, dim, descending, stable):
    return torch.argsort(arg, dim=dim, descending=descending, stable=stable)


def _topk(ctx, arg, k, dim, largest, sorted):
    values, indices = torch.topk(arg, int(k), dim=dim, largest=largest, sorted=sorted)
    return values, indices


_op("argsort", (_ARG, _DIM, Param("descending", "bool", False), Param("stable", "bool", False)),
    _argsort, "torch.argsort -> Int indices")
_op("topk", (_ARG, Param("k", "scalar"), Param("dim", "int", -1), Param("largest", "bool", True),
             Param("sorted", "bool", False)),
    _topk, "torch.topk -> (values, indices)", n_outputs=2)
