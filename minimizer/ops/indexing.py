"""Indexing ops: index_select, select, gather, take_along_axis, scatter, index_put_accumulate,
embedding_fwd.

nvFuser takes Int32 or Int64 index tensors; several torch functions insist on Int64, so the
references widen them. The legacy bindings call the indexed tensor ``arg1`` in gather,
take_along_axis and scatter, the direct ones ``arg``: both are modelled, one per frontend.

Every op's index is a ``ValueParam`` (``INDEX_PARAMS``): its values must lie in ``[0, n)``, ``n``
the extent of the dim it indexes. nvFuser's kernels compute the address from the index as given
(no wrap of negative indices, no bounds check): an index outside reads or writes memory that is
not the tensor's, which on the GPU is a device-side assert or garbage, and torch refuses it on the
CPU (``index out of range``), so fmin's reference cannot say what the fusion computes. The value
rule ``index-range`` judges every real run; a fusion input read as an index is written with
values drawn in range (``Drawn``), for whatever extents a reduction or mutation leaves. ``scatter``
(rule ``scatter-index``) also needs its indices distinct along ``dim``: torch's documentation of
``scatter_`` says that of duplicate indices one value is picked arbitrarily, so two runs (or
nvFuser and the reference) may differ without either being wrong.
"""
from __future__ import annotations

import torch
import torch.nn.functional as F

from .dims import NOT_FOLLOWED
from .registry import register
from .spec import DIRECT_ONLY, LEGACY_ONLY, Drawn, OpSpec, Param, ValueParam, not_generated, values_readable

_ARG = Param("arg", "tensor")
_ARG_BY_FRONTEND = (Param("arg1", "tensor", frontends=LEGACY_ONLY), Param("arg", "tensor", frontends=DIRECT_ONLY))
_RENAMED = (("arg1", "arg"),)   # (legacy, direct)
_INDEX = Param("index", "tensor")
_DIM = Param("dim", "int")


def _indexed(kw) -> torch.Tensor:
    """The indexed tensor, whichever frontend's name it came under."""
    return kw["arg"] if "arg" in kw else kw["arg1"]


def _index_select(ctx, arg, index, dim):
    return torch.index_select(arg, dim, index.long())


def _select(ctx, arg, index, dim):
    return torch.select(arg, dim, int(index))


def _gather(ctx, index, dim, **kw):
    return torch.gather(_indexed(kw), dim, index.long())


def _take_along_axis(ctx, index, dim, **kw):
    arg = _indexed(kw)
    if index.ndim != arg.ndim:
        raise ValueError(f"take_along_axis: index has {index.ndim} dims, input has {arg.ndim}")
    return torch.take_along_dim(arg, index.long(), dim)


def _scatter(ctx, index, src, dim, **kw):
    arg = _indexed(kw)
    if isinstance(src, torch.Tensor):
        return torch.scatter(arg, dim, index.long(), src)
    return torch.scatter(arg, dim, index.long(), torch.tensor(src).to(arg.dtype).item())


def _index_put_accumulate(ctx, acc, index, value):
    """``acc[index[i]] += value[i]`` along the first dim, duplicates adding up."""
    return torch.index_put(acc, (index.long(),), value, accumulate=True)


def _embedding_fwd(ctx, input, weight, padding_idx=None, max_norm=None, norm_type=None,
                   scale_grad_by_freq=None, sparse=None):
    """F.embedding. With max_norm, torch (and nvFuser, which calls it) renormalises rows of
    ``weight`` in place; the reference works on a copy so that a weight used again later in the
    fusion is not changed under it."""
    if max_norm is not None and weight.device.type == "meta":
        max_norm = None  # renormalising changes values only
    elif max_norm is not None:
        weight = weight.clone()
    return F.embedding(input, weight,
                       padding_idx=None if padding_idx is None else int(padding_idx),
                       max_norm=max_norm,
                       norm_type=2.0 if norm_type is None else float(norm_type),
                       scale_grad_by_freq=bool(scale_grad_by_freq),
                       sparse=bool(sparse))


def _indexed_dim(t, dim) -> tuple[int, int]:
    """(the extent, the dim) an index runs along: ``dim`` of ``t``, wrapped as nvFuser wraps it."""
    if not isinstance(t, torch.Tensor) or t.ndim == 0 or isinstance(dim, bool) or not isinstance(dim, int):
        raise ValueError("no indexed dim")
    d = dim % t.ndim
    return t.shape[d], d


def _index_values(name: str, rule: str, where, distinct: bool = False) -> ValueParam:
    """The ``ValueParam`` of parameter ``name``, an index along the dim ``where(args)`` names (the
    indexed tensor and its dim, as ``(tensor, dim)``); ``distinct``: no index twice along that dim
    of the index tensor (``scatter``)."""

    def make(args) -> Drawn:
        n, d = _indexed_dim(*where(args))
        return Drawn(n, d if distinct else None)

    def problem(args) -> str | None:
        n, d = _indexed_dim(*where(args))
        v = args[name]
        if isinstance(v, torch.Tensor) and not values_readable(v):
            return None
        if isinstance(v, int) and not isinstance(v, bool):
            return None if 0 <= v < n else f"{name} {v} is outside [0, {n}) (the extent of dim {d})"
        if not isinstance(v, torch.Tensor) or v.numel() == 0:
            return None
        lo, hi = int(v.min()), int(v.max())
        if lo < 0 or hi >= n:
            return f"{name} holds indices from {lo} to {hi}, outside [0, {n}) (the extent of dim {d})"
        if distinct and v.ndim > d and v.shape[d] > 1:
            s = v.sort(dim=d).values
            if bool((s.narrow(d, 1, s.shape[d] - 1) == s.narrow(d, 0, s.shape[d] - 1)).any()):
                return f"{name} holds one index twice along dim {d}: which of the two writes wins is not defined"
        return None

    return ValueParam(name, rule, make=make, problem=problem)


def _along_dim(args):
    """Where an index runs along ``dim`` of the indexed tensor."""
    return _indexed(args), args["dim"]


def _rows(param: str):
    """Where an index picks rows (dim 0) of parameter ``param``."""
    return lambda args: (args[param], 0)


#: op name -> its index parameter's ``ValueParam``
INDEX_PARAMS = {
    "index_select": _index_values("index", "index-range", _along_dim),
    "select": _index_values("index", "index-range", _along_dim),
    "gather": _index_values("index", "index-range", _along_dim),
    "take_along_axis": _index_values("index", "index-range", _along_dim),
    "scatter": _index_values("index", "scatter-index", _along_dim, distinct=True),
    "index_put_accumulate": _index_values("index", "index-range", _rows("acc")),
    "embedding_fwd": _index_values("input", "index-range", _rows("weight")),
}


_NOT_GENERATED = not_generated("needs an index tensor within the indexed extents, which the generator does not make")


def _op(name, params, ref, doc, bypass=(), **kw):
    """An index op: not generated, and FewerDims does not follow a dim through it."""
    vp = INDEX_PARAMS[name]
    register(OpSpec(name, "index", params, ref=ref, bypass=bypass, doc=doc, generate=_NOT_GENERATED,
                    dim_rule=NOT_FOLLOWED, value_params=(vp,),
                    tags=frozenset({"index-scatter" if vp.rule == "scatter-index" else "index-read"}), **kw))


_op("index_select", (_ARG, _INDEX, _DIM), _index_select, "torch.index_select(arg, dim, index)")
_op("select", (_ARG, Param("index", "scalar"), _DIM), _select, "torch.select(arg, dim, index)")
_op("gather", _ARG_BY_FRONTEND + (_INDEX, _DIM), _gather, "torch.gather(arg, dim, index)",
    renamed=_RENAMED)
_op("take_along_axis", _ARG_BY_FRONTEND + (_INDEX, _DIM), _take_along_axis,
    "torch.take_along_dim(arg, index, dim)", renamed=_RENAMED)
_op("scatter", _ARG_BY_FRONTEND + (_INDEX, Param("src", "operand"), _DIM), _scatter,
    "torch.scatter(arg, dim, index, src); src may be a scalar", bypass=("arg1", "arg"), renamed=_RENAMED)
_op("index_put_accumulate", (Param("acc", "tensor"), _INDEX, Param("value", "tensor")),
    _index_put_accumulate, "acc.index_put((index,), value, accumulate=True)", bypass=("acc",),
    frontends=LEGACY_ONLY)
_op("embedding_fwd", (Param("input", "tensor"), Param("weight", "tensor"),
                      Param("padding_idx", "scalar", None), Param("max_norm", "scalar", None),
                      Param("norm_type", "scalar", None), Param("scale_grad_by_freq", "scalar", None),
                      Param("sparse", "scalar", None)),
    _embedding_fwd, "F.embedding")
