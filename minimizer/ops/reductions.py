"""Reductions: sum, prod, max, min, var, var_mean, welford.

nvFuser binds ``sum``/``prod``/``max``/``min`` three times: ``(arg, dims: list, keepdim, dtype)``,
``(arg, dim: int, keepdim, dtype)`` and ``(arg, dtype)`` (reduce everything). One parameter list
covers them: ``dims`` takes an int or a list, may be omitted (reduce all), and is also spelled
``axes`` (scripts before 0.1.6) or ``dim`` (the int overload). What the binder cannot model is
the third overload's *positional* dtype, ``fd.ops.sum(T0, DataType.Float)``.

Semantics that differ from a plain torch call, from ``csrc/ops/arith.cpp``:
* ``dtype`` other than Null casts the input before reducing; sum/prod of Bool/Int inputs
  accumulate in Int (like torch); max/min reject any dtype but Null.
* an empty dims list is an error ("No reduction axis specified"), not "reduce all" as in torch.
* a 0-dim input reduces to a copy of itself.
* ``var_mean`` refuses Half/BFloat16/Float8 inputs ("please upcast to float").
"""
from __future__ import annotations

from dataclasses import replace

import torch

from ..model import Ref, Stmt
from .dims import Reach, NotFollowed, dim_list, dim_rule, norm, renum
from .elementwise import torch_dtype
from .registry import register
from .spec import DIRECT_ONLY, LEGACY_ONLY, OpSpec, Param, generated

_ARG = Param("arg", "tensor")
_DIMS_OPT = Param("dims", "ints", None, aliases=("axes", "dim"))
_DIMS = Param("dims", "ints", aliases=("axes",))
_KEEPDIM = Param("keepdim", "bool", False)
_DTYPE = Param("dtype", "dtype", "Null")

def _reduction_writer(*, n_out: int = 1, correction: bool = False, keepdim: bool = True):
    """How the fuzzer writes a reduction (``Gen.write``): over a drawn dim and maybe others,
    keepdim drawn (where the op has it), and keepdim where every dim goes (a 0-dim result has no
    dim to carry); ``correction`` drawn for var. An op without ``keepdim`` (welford) must keep a
    dim instead. An operand of a dtype the op is not drawn for gets a ``sum``."""
    def write(B, name, x, P, force) -> bool:
        if GEN[name].dtypes and x.dtype not in GEN[name].dtypes:
            if force is not None:
                return False
            return GEN["sum"].write(B, "sum", x, P, None)
        r = len(x.shape)
        first = P(r)
        dims = sorted({first} | {d for d in range(r) if d != first and P.flag(30)})
        keep = P.flag(30) if keepdim else False
        if r == 1 or len(dims) == r:
            if not keepdim:
                if r == 1:
                    return False
                dims = dims[:-1] if len(dims) > 1 else dims
            else:
                keep = True
        kept = tuple(d for d in range(r) if d not in dims)
        if keep:
            bc = tuple(True if d in dims else x.bcast[d] for d in range(r))
            full = None
        else:
            bc = tuple(x.bcast[d] for d in kept)
            full = (x.shape, kept)
        kw = [("dims", tuple(dims))]
        if correction:
            kw.append(("correction", P(2)))
        if keepdim:
            kw.append(("keepdim", keep))
        B.op(name, (Ref(x.name),), kw, bcast=bc, n_out=n_out, full=full)
        return True
    return write


# what the fuzzer draws for an operand of each category, simplest first (``Gen``); var,
# var_mean and welford only for Float and Double (var_mean refuses Half/BFloat16), welford on
# rank >= 2 (it must keep a dim)
GEN = generated("reduction", _reduction_writer(), f="sum max min prod var var_mean welford", i="sum max min prod",
                b="sum", special={"var": _reduction_writer(correction=True),
                                  "var_mean": _reduction_writer(correction=True, n_out=2),
                                  "welford": _reduction_writer(keepdim=False, n_out=3)})
for _name in ("var", "var_mean", "welford"):
    GEN[_name] = replace(GEN[_name], dtypes=("Float", "Double"), min_rank=2 if _name == "welford" else 1)


@dim_rule("reduction", reads=("arg", "dims"))
def REDUCTION(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """``dims`` renumbered; the result loses the dim if it is reduced (keepdim keeps it); a
    reduction over the dropped dim alone is refused."""
    r, p = at.operand(s)
    keep = bool(s.arg("keepdim", False))
    dims = s.arg("dims")
    if dims is None:
        return s, (p if keep else None)
    ds, bare = dim_list(dims)
    normed = {norm(d, r) for d in ds}
    left = [renum(d, r, p) for d in ds if norm(d, r) != p]
    if not left:
        raise NotFollowed("reduces the dropped dim alone")
    new = s.with_arg("dims", left[0] if bare and len(left) == 1 else tuple(left))
    if keep:
        return new, p
    return new, (None if p in normed else p - sum(1 for d in normed if d < p))


def _op(name, params, ref, doc, **kw):
    """A reduction: its ``dims`` renumber as ``REDUCTION`` says."""
    register(OpSpec(name, "reduction", params, ref=ref, doc=doc, generate=GEN[name], dim_rule=REDUCTION, **kw))


def reduced_dims(x: torch.Tensor, dims) -> tuple[int, ...]:
    """``dims`` (None, an int or a list, negative allowed) as sorted non-negative dims."""
    if dims is None:
        return tuple(range(x.ndim))
    dims = (dims,) if isinstance(dims, int) else tuple(dims)
    if not dims:
        raise ValueError("No reduction axis specified")
    n = max(x.ndim, 1)
    for d in dims:
        if not -n <= d < n:
            raise IndexError(f"reduction dim {d} is out of range for a {x.ndim}-dim tensor")
    return tuple(sorted({d % n for d in dims}))


def _prod(x, dims, keepdim):
    """torch.prod reduces one dim at a time."""
    for d in sorted(dims, reverse=True):
        x = torch.prod(x, d, keepdim=keepdim)
    return x


def _reduction(fn, takes_dtype: bool, int_accumulates: bool):
    def ref(ctx, arg, dims, keepdim, dtype):
        d = reduced_dims(arg, dims)
        dt = torch_dtype(dtype)
        if dt is not None and not takes_dtype:
            raise ValueError("A dtype other than Null is not currently supported.")
        if dt is None and int_accumulates and not (arg.is_floating_point() or arg.is_complex()):
            dt = torch.int64
        if dt is not None:
            arg = arg.to(dt)
        if arg.ndim == 0:
            return arg.clone()
        return fn(arg, d, keepdim)
    return ref


for _name, _fn, _takes, _acc in (("sum", lambda x, d, k: torch.sum(x, d, keepdim=k), True, True),
                                 ("prod", _prod, True, True),
                                 ("max", lambda x, d, k: torch.amax(x, d, keepdim=k), False, False),
                                 ("min", lambda x, d, k: torch.amin(x, d, keepdim=k), False, False)):
    # nvFuser binds each reduction twice: (arg, dims, keepdim, dtype) and (arg, dtype) over every
    # dim, so ``fd.ops.prod(t, DataType.Float)`` is the second, not a dtype given as dims
    _op(_name, (_ARG, _DIMS_OPT, _KEEPDIM, _DTYPE), _reduction(_fn, _takes, _acc), bypass=("arg",),
        tags=frozenset({"int-arith"}) if _acc else frozenset(),   # sum and prod accumulate: they overflow
        doc=f"torch.{'amax' if _name == 'max' else 'amin' if _name == 'min' else _name} over dims",
        overloads=(("arg", "dtype"),))


def _var(ctx, arg, dims, correction, keepdim):
    if correction < 0:
        raise ValueError(f"correction must be non-negative, but got {correction}")
    return torch.var(arg, reduced_dims(arg, dims), correction=correction, keepdim=keepdim)


_LOW_PRECISION = (torch.float16, torch.bfloat16, torch.float8_e4m3fn, torch.float8_e5m2)


def _var_mean(ctx, arg, dims, correction, keepdim):
    if arg.dtype in _LOW_PRECISION:
        raise TypeError(f"variance_mean is not supported for {arg.dtype}, please upcast to float")
    if correction < 0:
        raise ValueError(f"correction must be non-negative, but got {correction}")
    return torch.var_mean(arg, reduced_dims(arg, dims), correction=correction, keepdim=keepdim)


def _welford(ctx, arg, dims):
    """(mean, sum of squared deviations, count): the count is shaped like the mean and has
    nvFuser's ``DataType::Index``, which the kernel resolves: Int32 in a reduction kernel, Int64
    after a ``cat`` (docs/benchmarks.md). The reference says Int32 (Int64 past 2**31 elements,
    where 32-bit indexing cannot be), and the fuzzer's differential oracle accepts either."""
    d = reduced_dims(arg, dims)
    avg = torch.mean(arg, d)
    var_sum = torch.sum((arg - torch.mean(arg, d, keepdim=True)) ** 2, d)
    count = 1
    for k in d:
        count *= arg.shape[k]
    index = torch.int32 if arg.numel() < 2 ** 31 else torch.int64
    return avg, var_sum, torch.full(avg.shape, count, dtype=index, device=arg.device)


_op("var", (
    _ARG, _DIMS,
    Param("correction", "int", frontends=LEGACY_ONLY),
    Param("correction", "int", 1, frontends=DIRECT_ONLY),
    _KEEPDIM,
), _var, bypass=("arg",), doc="torch.var(correction=); legacy has no default correction")

_op("var_mean", (_ARG, _DIMS, Param("correction", "int", 1), _KEEPDIM), _var_mean, n_outputs=2,
    doc="torch.var_mean -> (var, mean)")

_op("welford", (_ARG, Param("dims", "ints")), _welford, n_outputs=3, doc="-> (avg, var_sum, n)")
