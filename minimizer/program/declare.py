"""A new fusion input declared for a value: the ``define_tensor`` (or ``define_scalar``) of a meta
tensor's shape, dtype, broadcasts and layout in the script's own style, and its ``inputs`` entry
(the FX minifier's placeholder).

The reduction's passes cut regions to inputs with it and the seeded fuzzer's mutations rebuild an
input with it (another broadcast, layout or dtype), so both declare an input one way.
"""
from __future__ import annotations

import torch

from .. import dtypes
from ..model import (DEFINE_SCALAR, DEFINE_TENSOR, LEGACY, DType, Program, ScalarArg, Stmt, TensorArg,
                     contiguous_strides)
from . import edits

SCALAR_TYPES = (bool, int, float, complex)


def is_tensor(v) -> bool:
    return isinstance(v, torch.Tensor)


def is_scalar(v) -> bool:
    return isinstance(v, SCALAR_TYPES)



def bcast_flags(program: Program, info, name: str, t) -> tuple[bool, ...]:
    """Which dims of value ``name`` are broadcasts in nvFuser's IR. ``info.facts`` is keyed by
    name (the last binding), so for a rebound name fall back to "extent 1 or stride 0"."""
    f = info.facts.get(name) if info is not None else None
    n_bind = sum(1 for s in program.stmts for o in s.outs if o == name)
    if f is not None and len(f.bcast) == t.ndim and n_bind == 1:
        return tuple(f.bcast)
    return tuple(sz == 1 or st == 0 for sz, st in zip(t.shape, t.stride()))


# ---- names in the script's style ----
_STYLE = {LEGACY: {"tensor": "T", "scalar": "S", "vector": "V"},
          "nvfuser_direct": {"tensor": "tv", "scalar": "c", "vector": "V"}}


def kind_of(v) -> str:
    if is_tensor(v):
        return "tensor"
    if isinstance(v, tuple):
        return "vector"
    return "scalar"


def prefix(program: Program, kind: str) -> str:
    """``T``/``S``/``V`` in legacy scripts, ``tv``/``c`` in direct ones."""
    return _STYLE.get(program.dialect.frontend, _STYLE[LEGACY])[kind]


def new_name(program: Program, kind: str) -> str:
    return edits.fresh_name(program, prefix(program, kind))


# ---- declaring inputs ----
def template(program: Program) -> Stmt | None:
    """An existing ``define_tensor`` whose keyword layout new declarations copy."""
    for s in program.stmts:
        if s.is_tensor_decl and s.has("shape") and not s.has("sizes"):
            return s
    return None


def plain_strides(shape, expanded) -> tuple[int, ...]:
    """Row-major strides, 0 at expanded (stride-0 broadcast) dims."""
    out, acc = [0] * len(shape), 1
    for d in range(len(shape) - 1, -1, -1):
        if expanded[d]:
            out[d] = 0
            continue
        out[d] = acc
        acc *= max(shape[d], 1)
    return tuple(out)


def strides_in_order(shape, alloc, expanded) -> tuple[int, ...]:
    """Dense strides for allocation order ``alloc`` (logical dims, outermost first)."""
    out, acc = [0] * len(shape), 1
    for d in reversed(alloc):
        if expanded[d]:
            continue
        out[d] = acc
        acc *= max(shape[d], 1)
    return tuple(out)


def tensor_arg(shape, strides, dtype: str, device: str) -> TensorArg:
    """A ``TensorArg``, with row-major strides whenever torch would call it contiguous (that is
    how the printer writes it, so the program reads back equal)."""
    a = TensorArg(tuple(shape), tuple(strides), dtype, device)
    if a.is_contiguous() and a.strides != contiguous_strides(a.shape):
        a = TensorArg(a.shape, contiguous_strides(a.shape), dtype, device)
    return a


def device_of(program: Program) -> str:
    """Where a new tensor input of ``program`` goes: where its tensors are. A 0-dim CPU tensor is
    nvFuser's CPU scalar, not where the fusion runs (a new input of more dims on the CPU is one
    nvFuser refuses: ``getCommonDeviceCUDA``)."""
    for a in program.inputs or ():
        if isinstance(a, TensorArg) and not (a.device == "cpu" and a.ndim == 0):
            return a.device
    return "cuda"


def tensor_input(program: Program, name: str, t, bcast, alloc: list[int] | None = None
                 ) -> tuple[Stmt, TensorArg] | None:
    """A ``define_tensor`` for a value like ``t`` (a meta tensor) and its ``TensorArg``.

    Broadcast dims of extent 1 are declared 1 (contiguity None); broadcast dims of a larger
    extent become expanded inputs (shape -1, contiguity None, stride 0); every other dim is
    symbolic and contiguous. ``alloc`` (logical dims, outermost first) asks for a non-row-major
    layout, declared with ``stride_order``. None where the script's style cannot say it.
    """
    try:
        dt = dtypes.from_torch(t.dtype)
    except KeyError:
        return None
    shape = tuple(int(x) for x in t.shape)
    n = len(shape)
    expanded = [bool(bcast[d]) and shape[d] != 1 for d in range(n)]
    alloc = list(range(n)) if alloc is None else list(alloc)
    row_major = alloc == list(range(n))
    strides = strides_in_order(shape, alloc, expanded)
    decl_shape = tuple(1 if (bcast[d] and shape[d] == 1) else -1 for d in range(n))
    tpl = template(program)
    if tpl is not None and tpl.has("contiguous"):  # 2022-2023 spelling: a flag per logical dim
        if any(expanded) or not row_major:
            return None
        args = [("shape", decl_shape), ("contiguous", tuple(True for _ in range(n))), ("dtype", DType(dt))]
    else:
        contig = tuple(None if bcast[d] else True for d in alloc)
        args = [("shape", decl_shape), ("contiguity", contig), ("dtype", DType(dt))]
        if tpl is None or tpl.has("is_cpu"):
            args.append(("is_cpu", False))
        want_order = not row_major or (n > 0 and (tpl.has("stride_order") if tpl is not None
                                                  else program.dialect.is_legacy))
        if want_order:
            order = [0] * n
            for pos, d in enumerate(alloc):
                order[d] = n - 1 - pos
            args.append(("stride_order", tuple(order)))
    if dt == "Float4_e2m1fn":
        shape = _packed_fp4_shape(shape, alloc, expanded)
        if shape is None:
            return None
        strides = strides_in_order(shape, alloc, expanded)
    stmt = Stmt((name,), DEFINE_TENSOR, tuple(args), npos=0)
    return stmt, tensor_arg(shape, strides, dt, device_of(program))


def _packed_fp4_shape(shape, alloc, expanded) -> tuple[int, ...] | None:
    """The torch shape of an fp4 input of logical ``shape``: its innermost allocation dim holds
    two values per byte (``ops.fp4``); None where that dim cannot be packed."""
    if not shape or shape[alloc[-1]] % 2 or expanded[alloc[-1]]:
        return None
    return tuple(x // 2 if d == alloc[-1] else x for d, x in enumerate(shape))


def alloc_order(t) -> list[int] | None:
    """The allocation order (logical dims, outermost first) of a dense meta tensor without
    stride-0 dims; None otherwise."""
    shape, st = list(t.shape), list(t.stride())
    if any(s == 0 for s, sz in zip(st, shape) if sz != 1):
        return None
    order = sorted(range(t.ndim), key=lambda d: (-st[d], d))
    dense = strides_in_order(shape, order, [False] * t.ndim)
    if any(dense[d] != st[d] for d in range(t.ndim) if shape[d] != 1):
        return None
    return order


def scalar_input(program: Program, name: str, value, dtype: str | None = None) -> tuple[Stmt, ScalarArg] | None:
    """``define_scalar(None, dtype=...)`` and its ``ScalarArg`` for a Python number."""
    if not is_scalar(value):
        return None
    dt = dtype or dtypes.of_python_scalar(value)
    stmt = Stmt((name,), DEFINE_SCALAR, (("value", None), ("dtype", DType(dt))), npos=1)
    return stmt, ScalarArg(value)
