"""Scans (cumsum, cumprod, cummin, cummax) and sorting (argsort, topk).

nvFuser's scans keep the input dtype (``csrc/ops/arith.cpp`` ``scan``: "low-precision input is
not upcast"), where ``torch.cumsum`` would widen Int32 to Int64. The direct frontend's ``init`` is
the value the scan starts from: ``cumsum(x, init=c)[i] = c + x[0] + ... + x[i]``.
"""
from __future__ import annotations

import contextvars
import math

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


#: half/bfloat16 scans accumulate in their own dtype, as a scan kernel may (nvFuser's does:
#: ``runtime/scan.cu`` runs CUB's block scan on the input's type, in a tree order across threads):
#: ``RunOptions.narrow_scans``, other legitimate results for ``compare.judge`` (eager accumulates in
#: float, so an overflow on the way is lost there and kept here). The value is the mode: ``True``
#: (or "order"): one rounding per step, in order; "low"/"high": the exact scan minus/plus the
#: bound on the rounding error of any order of accumulation (``narrow_bound``). Every mode gives
#: +-inf wherever some order overflows (``overflows``).
NARROW = contextvars.ContextVar("narrow_scans", default=False)


def _narrow(x, dim, combine):
    """The scan of ``x`` along ``dim`` accumulated in ``x.dtype``, as ``NARROW``'s mode says."""
    mode = NARROW.get()
    product = combine is torch.mul
    if mode in ("low", "high"):
        exact, bound = narrow_bound(x, dim, product)
        acc = exact - bound if mode == "low" else exact + bound
    else:
        step = x.select(dim, 0)
        out = [step]
        for i in range(1, x.shape[dim]):
            step = combine(step, x.select(dim, i)).to(x.dtype)
            out.append(step)
        acc = torch.stack(out, dim)
    hit, value = overflows(x, dim, product)
    return torch.where(hit, value, acc.double()).to(x.dtype).contiguous()


def narrow_bound(x, dim, product: bool):
    """(the exact scan of ``x`` along ``dim`` in float64, the bound on how far an accumulation in
    ``x.dtype`` in any order may be from it): element i takes i roundings of unit roundoff u, so
    gamma_i = i*u / (1 - i*u) times the sum of magnitudes (a sum) or the magnitude (a product)."""
    v = x.double()
    u = torch.finfo(x.dtype).eps / 2
    n = x.shape[dim]
    i = torch.arange(n, dtype=torch.float64, device=v.device).reshape([n if d == dim % v.dim() else 1
                                                                        for d in range(v.dim())])
    gamma = (i * u / (1 - i * u)).clamp_min(0)
    exact = torch.cumprod(v, dim) if product else torch.cumsum(v, dim)
    return exact, gamma * (exact.abs() if product else torch.cumsum(v.abs(), dim))


def overflows(x, dim, product: bool):
    """Per element of a scan of ``x`` along ``dim`` in ``x.dtype``: (whether some contiguous window
    of its prefix — a partial result of some order — leaves the dtype's range, the value an
    accumulation that overflowed gives there: +-inf, NaN where it meets a zero or infinities of
    both signs). Kadane's running best window, in float64 (logs of magnitudes for products)."""
    big = torch.finfo(x.dtype).max
    v = x.double().movedim(dim, 0)
    w = v.abs().log() if product else v
    limit = math.log(big) if product else big
    hi = lo = None
    up = down = torch.zeros(v.shape[1:], dtype=torch.bool, device=v.device)
    hits, vals = [], []
    for i in range(v.shape[0]):
        hi = w[i] if hi is None else torch.maximum(w[i], hi + w[i])
        up = up | (hi > limit)
        if product:
            total = torch.prod(v[:i + 1], 0)
            val = torch.where(total == 0, math.nan, torch.sign(total) * math.inf)
        else:
            lo = w[i] if lo is None else torch.minimum(w[i], lo + w[i])
            down = down | (lo < -limit)
            val = torch.where(up & down, math.nan, torch.where(up, math.inf, -math.inf))
        hits.append(up if product else up | down)
        vals.append(val)
    return torch.stack(hits, 0).movedim(0, dim), torch.stack(vals, 0).movedim(0, dim)


def _narrowed(x) -> bool:
    """Whether this scan accumulates in its own dtype (a reference run asked for it). Never while Dynamo traces
    the catalog for the Inductor translation: it cannot trace ``ContextVar.get``, and a compiled
    program is never the narrow reference."""
    if torch.compiler.is_compiling():
        return False
    return bool(NARROW.get()) and x.dtype in (torch.float16, torch.bfloat16) and x.dim() > 0 and x.numel() > 0


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
        frontends=BOTH if _name == "cumsum" else DIRECT_ONLY, bypass=("arg",),
        tags=frozenset({"int-arith"}) if _name in ("cumsum", "cumprod") else frozenset())


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
