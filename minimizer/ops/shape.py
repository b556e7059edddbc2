"""Shape and layout ops: broadcast_in_dim, broadcast, expand, reshape, permute, squeeze, slice,
pad, cat, stride_order, and the size queries shape, size, at, tensor_sizes.

Size lists arrive as tuples whose entries are ints or resolved Int scalars (or, in the legacy
frontend, a whole Vector resolved to a tuple). nvFuser checks a few things that torch would let
through, and the references raise for them so that a candidate nvFuser would reject at definition
time is rejected here too: ``broadcast_dims`` must increase, ``squeeze`` only removes broadcast
dims, ``cat`` needs one dtype, and ``slice`` (which checks this for constant indices; a reference
cannot tell constants from inputs) wants ``0 <= start <= end`` and strides of 1.
"""
from __future__ import annotations

from dataclasses import replace

import torch
import torch.nn.functional as F

from .. import dtypes
from ..model import DIRECT, Ref, Stmt
from .dims import (NOT_FOLLOWED, NotFollowed, Reach, dim_list, dim_rule, norm, one_dim, renum, renumbered_order,
                   without)
from .registry import register
from .spec import LEGACY_ONLY, OpSpec, Param, generated, not_generated

_ARG = Param("arg", "tensor")


def _ints(seq) -> list[int]:
    return [int(v) for v in seq]


def _broadcast_in_dim(ctx, arg, shape, broadcast_dims):
    """Unsqueeze every output dim not in ``broadcast_dims``, then expand to ``shape``
    (``-1`` keeps the extent). The direct frontend counts a negative dim from the output's end
    (its ``broadcast_in_dim`` wraps each with ``wrapDim``); the legacy one refuses it."""
    shape, dims = _ints(shape), list(broadcast_dims)
    if ctx is not None and ctx.frontend == DIRECT:
        dims = [d + len(shape) if -len(shape) <= d < 0 else d for d in dims]
    if len(dims) != arg.ndim:
        raise ValueError(f"The broadcast dimensions should match the input dimensions: "
                         f"{arg.ndim} vs {len(dims)}")
    if len(shape) < arg.ndim:
        raise ValueError("The new shape is expected to be greater-then-or-equal to the input")
    if any(a >= b for a, b in zip(dims, dims[1:])):
        raise ValueError("Broadcast dimension is not greater than the previous value.")
    if any(not 0 <= d < len(shape) for d in dims):
        raise ValueError("Invalid broadcast_dims value.")
    out = arg
    for d in range(len(shape)):
        if d not in dims:
            out = out.unsqueeze(d)
    return out.expand(shape)


def _broadcast(ctx, arg, is_broadcast_dim):
    flags = [bool(f) for f in is_broadcast_dim]
    if len(flags) - sum(flags) != arg.ndim:
        raise ValueError(f"Invalid broadcast: {sum(not f for f in flags)} non-broadcast dims "
                         f"for a {arg.ndim}-dim input")
    out = arg
    for d, f in enumerate(flags):
        if f:
            out = out.unsqueeze(d)
    return out


def _expand(ctx, arg, shape):
    return arg.expand(_ints(shape))


def _reshape(ctx, arg, new_shape, original_shape=None):
    return torch.reshape(arg, _ints(new_shape))


def _permute(ctx, arg, dims):
    return torch.permute(arg, list(dims))


def _squeeze(ctx, arg, dims, squeeze_expanded):
    """Remove size-1 dims; an expanded broadcast dim (stride 0) only with ``squeeze_expanded``."""
    dims = [dims] if isinstance(dims, int) else list(dims)
    n = arg.ndim
    if any(not -n <= d < n for d in dims):
        raise IndexError(f"Squeeze dim is outside of Tensor size! Tensor Size: {n} Dims: {dims}")
    out = arg
    for d in sorted({d % n for d in dims}, reverse=True):
        if out.shape[d] == 1:
            out = out.squeeze(d)
        elif out.stride(d) == 0 and squeeze_expanded:
            out = out.select(d, 0)
        elif out.stride(d) == 0:
            raise ValueError(f"Refusing to squeeze expanded dim {d}. To force removal of this "
                             f"axis, use squeeze_expanded=true.")
        else:
            raise ValueError(f"Can not squeeze non-broadcasting dimension(s): dim {d} has "
                             f"extent {out.shape[d]}")
    return out


def _slice(ctx, arg, start_indices, end_indices, strides=None, manual_normalization=False):
    start, end = _ints(start_indices), _ints(end_indices)
    if not len(start) == len(end) == arg.ndim:
        raise ValueError(f"Number of tensor dimensions does not match slice dimensions! "
                         f"Tensor-dims: {arg.ndim} Slice-dims: {len(start)}/{len(end)}")
    if strides is not None and any(int(s) != 1 for s in strides):
        raise ValueError("nvFuser Limitation: All slice operation strides must be of const size 1.")
    if strides is not None and len(strides) != len(start):
        raise ValueError("Slice start_indices and strides don't match!")
    for s, e in zip(start, end):
        if s < 0:
            raise ValueError(f"Slice operation start_indices must be greater than or equal to 0. "
                             f"Start Indices: {s}")
        if e < s:
            raise ValueError(f"Slice operation end_indices must be greater than or equal to "
                             f"start_indices. Start Indices: {s} End Indices: {e}")
    if manual_normalization:
        # taken literally: out-of-range values are the script's responsibility
        out = arg
        for d, (s, e) in enumerate(zip(start, end)):
            out = out.narrow(d, s, e - s)
        return out
    return arg[tuple(slice(s, e) for s, e in zip(start, end))]


def _pad(ctx, arg, pad_widths, value=None):
    """F.pad: width pairs start from the last dim; no value means 0 (False for Bool). A value
    must be of the tensor's kind (bool, integer, floating, complex), as nvFuser checks
    (``hasSimilarDtype``): a Python ``True`` padding a Bool tensor in the direct frontend is an
    Int64 scalar there (``literal_value``), and fails."""
    widths = _ints(pad_widths)
    if len(widths) % 2 or len(widths) > 2 * arg.ndim:
        raise ValueError(f"Invalid number of padding widths: {len(widths)}")
    if value is None:
        value = False if arg.dtype == torch.bool else 0
    elif dtypes.category(value) != dtypes.category(arg.dtype):
        raise ValueError("Tensor arg and pad value must have the same dtype.")
    return F.pad(arg, widths, mode="constant", value=value)


def _cat(ctx, tensors, dim=0, manual_padding=False):
    if not tensors:
        raise ValueError("No input tensor given")
    if len({t.dtype for t in tensors}) > 1:
        raise TypeError(f"Can't concatenate tensors with different data types: "
                        f"{[str(t.dtype) for t in tensors]}")
    return torch.cat(list(tensors), dim)


def _stride_order(ctx, arg, stride_order):
    """The same values, allocated so that dim i has stride rank ``stride_order[i]``
    (``ndim - 1`` outermost); an empty order is a plain copy."""
    order = list(stride_order)
    if not order:
        return arg.clone()
    if len(order) != arg.ndim:
        raise ValueError("Operator stride_order expects `stride_order` argument to have the "
                         "same length as input!")
    return with_stride_order(arg, order)


def with_stride_order(t: torch.Tensor, order) -> torch.Tensor:
    """A copy of ``t`` laid out so that logical dim i has stride rank order[i] (the layout rule
    of ``define_tensor(stride_order=...)`` and of the ``stride_order`` op alike)."""
    n = t.ndim
    perm = sorted(range(n), key=lambda d: -order[d])  # outermost first
    inv = [perm.index(d) for d in range(n)]
    return t.permute(perm).contiguous().permute(inv)


def _shape(ctx, arg):
    return tuple(int(d) for d in arg.shape)


def _size(ctx, arg, dim):
    return int(arg.shape[dim])


def _at(ctx, arg, index):
    return arg[index]


# ---- nvFuser IR facts (broadcast dims, pad outputs), measured on the GPU: docs/benchmarks.md ----
def keep_bcast(kw, src):
    """The output's broadcast dims are the input's (a copy, a cast, an expand)."""
    return src


def _bcast_broadcast_in_dim(kw, src):
    """Dims not listed in broadcast_dims are new broadcasts; listed ones keep the input's flag —
    a broadcast expanded to another extent is still a broadcast in nvFuser."""
    flags = [True] * len(kw["shape"])
    for k, d in enumerate(kw["broadcast_dims"]):
        flags[d] = src[k] if src is not None else kw["arg"].shape[k] == 1
    return tuple(flags)


def _bcast_broadcast(kw, src):
    it = iter(src if src is not None else [d == 1 for d in kw["arg"].shape])
    return tuple(True if b else next(it) for b in kw["is_broadcast_dim"])


def _bcast_permute(kw, src):
    return None if src is None else tuple(src[d] for d in kw["dims"])


def _check_cat(kw, facts_of):
    """cat(manual_padding=True) is nvFuser's lowered form: every input must be a pad's output
    (probe slice_cat.py fails in ops/alias.cpp otherwise)."""
    if kw.get("manual_padding") and not all(getattr(f, "padded", False) for f in facts_of("tensors")):
        return "Expected all inputs to be padded when manual_padding is True"
    return None


# ---- how the fuzzer writes these ops (``Gen.write``; the builder's interface: ``spec.Gen``) ----
def _new_dims(B, x, P) -> tuple[int, set[int], tuple[int, ...]]:
    """(rank of the result, its new dims, where the operand's dims go) of a broadcast: up to 2
    new dims, within the fuzzer's largest rank."""
    r = len(x.shape)
    n_new = min(B.max_rank - r, P(3))
    n = r + n_new
    new: set[int] = set()
    while len(new) < n_new:
        free = [d for d in range(n) if d not in new]
        new.add(free[P(len(free))])
    return n, new, tuple(d for d in range(n) if d not in new)


def _write_broadcast_in_dim(B, name, x, P, force) -> bool:
    """Back to the shape before a reduction (the norm pattern) mostly, where the operand is a
    keepdim=False reduction; else new dims of extent 1 or more."""
    X = Ref(x.name)
    if x.full is not None and P(4) != 3:
        full, kept = x.full
        bc = tuple(True if d not in kept else x.bcast[kept.index(d)] for d in range(len(full)))
        B.op("broadcast_in_dim", (X,), (("shape", tuple(full)), ("broadcast_dims", tuple(kept))), bcast=bc)
        return True
    n, new, bdims = _new_dims(B, x, P)
    shape, bc = [], []
    for d in range(n):
        if d in new:
            shape.append(1 + P(8) if P.flag(50) else 1)
            bc.append(True)
        else:
            k = bdims.index(d)
            shape.append(x.shape[k])
            bc.append(x.bcast[k])
    B.op("broadcast_in_dim", (X,), (("shape", tuple(shape)), ("broadcast_dims", bdims)), bcast=tuple(bc))
    return True


def _write_broadcast(B, name, x, P, force) -> bool:
    n, new, _ = _new_dims(B, x, P)
    flags = tuple(d in new for d in range(n))
    bc = []
    it = iter(x.bcast)
    for d in range(n):
        bc.append(True if d in new else next(it))
    B.op("broadcast", (Ref(x.name),), (("is_broadcast_dim", flags),), bcast=tuple(bc))
    return True


def _write_expand(B, name, x, P, force) -> bool:
    """Each extent-1 broadcast dim to a drawn extent; an operand without one gets a
    broadcast_in_dim instead."""
    r = len(x.shape)
    ones = [d for d in range(r) if x.bcast[d] and x.shape[d] == 1]
    if not ones:
        if force is not None:
            return False
        return _write_broadcast_in_dim(B, "broadcast_in_dim", x, P, None)
    shape = tuple(1 + P(8) if d in ones else -1 for d in range(r))
    B.op("expand", (Ref(x.name),), (("shape", shape),), bcast=x.bcast)
    return True


def _write_permute(B, name, x, P, force) -> bool:
    perm = tuple(P.perm(len(x.shape)))
    B.op("permute", (Ref(x.name),), (("dims", perm),), bcast=tuple(x.bcast[d] for d in perm))
    return True


def _write_stride_order(B, name, x, P, force) -> bool:
    B.op("stride_order", (Ref(x.name),), (("stride_order", tuple(P.perm(len(x.shape)))),), bcast=x.bcast)
    return True


def _factor_shape(numel: int, P, max_rank: int) -> tuple[int, ...]:
    """A drawn shape of ``numel`` elements and rank 1 to ``max_rank``: its prime factors spread
    over the dims."""
    primes, n, f = [], numel, 2
    while n > 1:
        while n % f == 0:
            primes.append(f)
            n //= f
        f += 1
    k = 1 + P(max_rank)
    out = [1] * k
    for p in primes:
        out[P(k)] *= p
    return tuple(out)


def _write_reshape(B, name, x, P, force) -> bool:
    """Not of an operand with an expanded broadcast dim (its elements are not all there)."""
    if any(b and e != 1 for b, e in zip(x.bcast, x.shape)):
        return False
    B.op("reshape", (Ref(x.name),), (("new_shape", _factor_shape(x.meta.numel(), P, B.max_rank)),))
    return True


def _write_squeeze(B, name, x, P, force) -> bool:
    """Some of the extent-1 broadcast dims, never all of them."""
    r, shp = len(x.shape), x.shape
    ones = [d for d in range(r) if x.bcast[d] and shp[d] == 1]
    if not ones or r < 2:
        return False
    first = ones[P(len(ones))]
    dims = sorted({first} | {d for d in ones if d != first and P.flag(30)})
    if len(dims) == r:
        dims = [first]
    B.op("squeeze", (Ref(x.name),), (("dims", tuple(dims)),),
         bcast=tuple(x.bcast[d] for d in range(r) if d not in dims))
    return True


def _write_slice(B, name, x, P, force) -> bool:
    """A drawn, never empty, window of each dim that is not a broadcast."""
    start, end = [], []
    for d, e in enumerate(x.shape):
        if x.bcast[d] or e == 1:
            start.append(0)
            end.append(e)
        else:
            s = P(e)
            start.append(s)
            end.append(e - P(e - s))
    B.op("slice", (Ref(x.name),), (("start_indices", tuple(start)), ("end_indices", tuple(end))))
    return True


def _write_pad(B, name, x, P, force) -> bool:
    """The last k dims padded (broadcast dims by nothing), maybe with a value of the operand's
    category."""
    r = len(x.shape)
    k = 1 + P(r)
    widths = []
    for d in range(r - 1, r - 1 - k, -1):
        if x.bcast[d]:
            widths += [0, 0]
        else:
            widths += [P(3), P(3)]
    args = [Ref(x.name), tuple(widths)]
    if P.flag(50):
        args.append(B.const_for(x.cat, P, exact=True))
    B.op("pad", tuple(args))
    return True


def _write_cat(B, name, x, P, force) -> bool:
    """Along a dim that is not a broadcast, with an earlier value that fits (or ``x`` itself)."""
    r, shp = len(x.shape), x.shape
    nb = [d for d in range(r) if not x.bcast[d]]
    if not nb:
        return False
    d = nb[P(len(nb))]

    def fits(v):
        return (v.dtype == x.dtype and len(v.shape) == r and not v.bcast[d]
                and all(v.shape[k] == shp[k] and v.bcast[k] == x.bcast[k] for k in range(r) if k != d))
    y = B.partner(x, P, fits) or x
    bc = tuple(False if k == d else x.bcast[k] for k in range(r))
    B.op("cat", ((Ref(x.name), Ref(y.name)),), (("dim", d),), bcast=bc)
    return True


# what the fuzzer draws for an operand of any category, simplest first (``Gen``)
GEN = {**generated("shape", None, every="permute reshape slice pad cat squeeze stride_order", special={
           "permute": _write_permute, "reshape": _write_reshape, "slice": _write_slice, "pad": _write_pad,
           "cat": _write_cat, "squeeze": _write_squeeze, "stride_order": _write_stride_order}),
       **generated("broadcast", None, every="broadcast_in_dim broadcast expand", special={
           "broadcast_in_dim": _write_broadcast_in_dim, "broadcast": _write_broadcast, "expand": _write_expand}),
       **dict.fromkeys(("shape", "size", "at", "tensor_sizes"), not_generated(
           "size queries: their Int scalars are not operands the generator's steps take"))}
GEN["squeeze"] = replace(GEN["squeeze"], min_rank=2, needs="broadcast-dim")
GEN["expand"] = replace(GEN["expand"], needs="broadcast-dim")
GEN["cat"] = replace(GEN["cat"], needs="non-broadcast-dim")


# ---- how FewerDims carries a dropped dim through each op (``ops.dims``) ----
@dim_rule("permute", reads=("arg", "dims"))
def PERMUTE(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """The permutation without the dim, renumbered."""
    r, p = at.operand(s)
    ds, _ = dim_list(s.arg("dims"))
    normed = [norm(d, r) for d in ds]
    if sorted(normed) != list(range(r)):
        raise NotFollowed("not a permutation")
    return s.with_arg("dims", tuple(renum(d, r, p) for d in ds if norm(d, r) != p)), normed.index(p)


@dim_rule("squeeze", reads=("arg", "dims"))
def SQUEEZE(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """``dims`` renumbered; squeezing the dropped dim itself removes it from the list."""
    r, p = at.operand(s)
    ds, bare = dim_list(s.arg("dims"))
    normed = {norm(d, r) for d in ds}
    left = [renum(d, r, p) for d in ds if norm(d, r) != p]
    new = s.with_arg("dims", left[0] if bare and len(left) == 1 else tuple(left))
    return new, (None if p in normed else p - sum(1 for d in normed if d < p))


@dim_rule("broadcast_in_dim", reads=("arg", "shape", "broadcast_dims"))
def BROADCAST_IN_DIM(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """The dim's output becomes a new broadcast of the same extent (``broadcast_dims`` without
    it)."""
    r, p = at.operand(s)
    bd = s.arg("broadcast_dims")
    if not isinstance(bd, tuple) or len(bd) != r:
        raise NotFollowed("broadcast_dims")
    shape = s.arg("shape")
    if isinstance(shape, tuple) and shape[bd[p]] == -1:
        raise NotFollowed("-1 keeps the dropped dim's extent")  # a new dim has none to keep
    return s.with_arg("broadcast_dims", without(bd, p)), None


@dim_rule("broadcast", reads=("arg", "is_broadcast_dim"))
def BROADCAST(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """The output dim the dropped dim fed becomes a new broadcast dim (its ``is_broadcast_dim``
    flag True; extent 1, as it was)."""
    r, p = at.operand(s)
    flags = s.arg("is_broadcast_dim")
    if not isinstance(flags, tuple):
        raise NotFollowed("is_broadcast_dim")
    kept = [k for k, f in enumerate(flags) if not f]
    if len(kept) != r:
        raise NotFollowed("is_broadcast_dim")
    k = kept[p]
    return s.with_arg("is_broadcast_dim", flags[:k] + (True,) + flags[k + 1:]), None


@dim_rule("reshape", reads=("arg",))
def RESHAPE(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """Absorbed: the elements keep their order, so the result is as it was (``original_shape``
    loses the dim)."""
    r, p = at.operand(s)
    old = s.arg("original_shape")
    if isinstance(old, tuple) and len(old) == r:
        s = s.with_arg("original_shape", without(old, p))
    return s, None


@dim_rule("expand", reads=("arg", "shape"))
def EXPAND(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """The dim's ``shape`` entry (1 or -1) goes."""
    r, p = at.operand(s)
    shape = s.arg("shape")
    if not isinstance(shape, tuple) or len(shape) < r:
        raise NotFollowed("expand shape")
    q = p + len(shape) - r
    if shape[q] not in (1, -1) or isinstance(shape[q], bool):
        raise NotFollowed("expands the dropped dim")
    return s.with_arg("shape", without(shape, q)), q


@dim_rule("slice", reads=("arg", "start_indices", "end_indices"))
def SLICE(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """The dim's start/end/stride entries go (it must be sliced whole)."""
    r, p = at.operand(s)
    new = s
    for key in ("start_indices", "end_indices", "strides"):
        v = s.arg(key)
        if v is None and key == "strides":
            continue
        if not isinstance(v, tuple) or len(v) != r:
            raise NotFollowed("slice bounds")
        new = new.with_arg(key, without(v, p))
    start, end = s.arg("start_indices")[p], s.arg("end_indices")[p]
    if start != 0 or isinstance(end, (bool, Ref)) or not isinstance(end, int) or end < 1:
        raise NotFollowed("slices the dropped dim")
    return new, p


@dim_rule("pad", reads=("arg", "pad_widths"))
def PAD(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """The dim's width pair goes (it must pad nothing); pairs run from the last dim."""
    r, p = at.operand(s)
    widths = s.arg("pad_widths")
    if not isinstance(widths, tuple):
        raise NotFollowed("pad widths")
    j = r - 1 - p
    if len(widths) > 2 * j:
        if widths[2 * j:2 * j + 2] != (0, 0):
            raise NotFollowed("pads the dropped dim")
        widths = widths[:2 * j] + widths[2 * j + 2:]
    return s.with_arg("pad_widths", widths), p


@dim_rule("cat", reads=("tensors", "dim"))
def CAT(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """``dim`` renumbered; every operand must drop the same dim."""
    ts = s.arg("tensors")
    if not isinstance(ts, tuple) or not ts or not all(isinstance(t, Ref) for t in ts):
        raise NotFollowed("cat operands")
    got = {(at.rank[t.name], at.where.get(t.name)) for t in ts}
    if len(got) != 1 or next(iter(got))[1] is None:
        raise NotFollowed("cat operands drop different dims")
    r, p = got.pop()
    return one_dim(s, r, p, 0), p


@dim_rule("stride_order", reads=("arg", "stride_order"))
def STRIDE_ORDER(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """The stride order without the dim, renumbered."""
    r, p = at.operand(s)
    order = s.arg("stride_order")
    if not isinstance(order, tuple) or len(order) != r:
        raise NotFollowed("stride_order")
    return s.with_arg("stride_order", renumbered_order(order, p)), p


@dim_rule("size", reads=("arg", "dim"))
def SIZE(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """``dim`` renumbered; the size of the dropped dim is refused."""
    r, p = at.operand(s)
    return one_dim(s, r, p, None), None


def _op(name, params, ref, doc, dim_rule, bypass=("arg",), **kw):
    """A shape op, with how FewerDims renumbers its dim arguments (``dim_rule``)."""
    register(OpSpec(name, "shape", params, ref=ref, bypass=bypass, doc=doc, generate=GEN[name],
                    dim_rule=dim_rule, **kw))


_op("broadcast_in_dim", (_ARG, Param("shape", "shape", aliases=("output_shape",)),
                         Param("broadcast_dims", "ints")),
    _broadcast_in_dim, "jax's broadcast_in_dim: unsqueeze the dims not listed, then expand",
    bcast_rule=_bcast_broadcast_in_dim, dim_rule=BROADCAST_IN_DIM)
_op("broadcast", (_ARG, Param("is_broadcast_dim", "any")), _broadcast,
    "unsqueeze the output dims flagged True", bcast_rule=_bcast_broadcast, dim_rule=BROADCAST)
_op("expand", (_ARG, Param("shape", "shape")), _expand, "Tensor.expand; -1 keeps the extent",
    bcast_rule=keep_bcast, dim_rule=EXPAND)
_op("reshape", (_ARG, Param("new_shape", "shape"),
                Param("original_shape", "shape", None, frontends=LEGACY_ONLY, keyword_only=True)),
    _reshape, "torch.reshape; before 0.0.22 scripts also passed original_shape= (ignored)", dim_rule=RESHAPE)
_op("permute", (_ARG, Param("dims", "ints")), _permute, "torch.permute (dims lists old dims in new order)",
    bcast_rule=_bcast_permute, tags=frozenset({"layout"}), dim_rule=PERMUTE)
_op("squeeze", (_ARG, Param("dims", "ints"), Param("squeeze_expanded", "bool", False)), _squeeze,
    "torch.squeeze of broadcast dims only", dim_rule=SQUEEZE)
_op("slice", (_ARG, Param("start_indices", "shape"), Param("end_indices", "shape"),
              Param("strides", "shape", None), Param("manual_normalization", "bool", False, int_in_legacy=True)),
    _slice, "x[start:end] per dim", dim_rule=SLICE)
_op("pad", (_ARG, Param("pad_widths", "shape"), Param("value", "scalar", None)), _pad,
    "F.pad(constant); pairs start from the last dim", tags=frozenset({"padded-output"}), dim_rule=PAD)
_op("cat", (Param("tensors", "tensors"), Param("dim", "int", 0),
            Param("manual_padding", "bool", False, int_in_legacy=True)),
    _cat, "torch.cat (manual_padding changes how nvFuser lowers it, not the result)", bypass=(),
    ir_check=_check_cat, dim_rule=CAT)
_op("stride_order", (_ARG, Param("stride_order", "ints")), _stride_order,
    "a copy with the given allocation order", bcast_rule=keep_bcast, tags=frozenset({"layout", "copy"}),
    dim_rule=STRIDE_ORDER)
_op("shape", (_ARG,), _shape, "x.shape (legacy: a Vector; direct: a list of Int scalars)", bypass=(),
    dim_rule=NOT_FOLLOWED)
_op("size", (_ARG, Param("dim", "int")), _size, "x.size(dim) as an Int scalar", bypass=(), dim_rule=SIZE)
_op("at", (Param("arg", "shape"), Param("index", "int")), _at, "vector[index]", bypass=(),
    frontends=LEGACY_ONLY, dim_rule=NOT_FOLLOWED)
_op("tensor_sizes", (_ARG,), _shape,
    "one Int scalar per dim (a variable number of results: n_outputs=-1)",
    bypass=(), frontends=LEGACY_ONLY, n_outputs=-1, dim_rule=NOT_FOLLOWED)
