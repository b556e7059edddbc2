"""Fewer dims (cosmetic): an input dim of extent 1 goes away, so the repro has lower rank.

After ``ShrinkShapes`` many extents are 1, and a ``[1, 1, 4]`` input says no more than a ``[4]``
one while making the reader track three dims through every op. Dropping a dim of an input is a
whole-program edit: the declaration loses its shape, contiguity and stride_order entries (the
contiguity entry sits at the dim's *allocation* position, the stride order is renumbered), the
``TensorArg`` loses the extent and its stride, and every op that the dim reaches must be told:
a ``sum(dims=[1])`` of a ``[1, 4]`` value becomes ``sum(dims=[0])``.

So a candidate is built by walking the program once and following where the dropped dim is
(``_Walk``), through each op by the rule its catalog entry names (``OpSpec.dim_rule``, one of
``ops.DIM_RULES``; ``RULES`` below implements them): elementwise ops carry it at its right-aligned position, reductions, ``permute``,
``squeeze``, ``cat``, ``slice``, ``pad``, scans... renumber their dim arguments, and
``broadcast_in_dim``, ``broadcast`` and ``reshape`` absorb it (their result keeps its shape, the
dim becomes a new broadcast or disappears in the flattening). Where an op cannot be renumbered
unambiguously (a reduction over that dim alone, a matmul, an index op, a mixed-rank elementwise
op that would realign its operands) the pass proposes nothing for that drop instead of a
candidate the static check would pass but that computes something else: a shorter repro is only
worth having when it still means the same thing, and a refused candidate costs nothing.

Candidates, coarse to fine: one dim position dropped from every input of the same rank that is 1
there (inputs that meet in elementwise ops usually share their broadcast dims), then each input's
extent-1 dims one at a time. A candidate keeps ops, inputs, outputs and input elements, never
raises the extents (at most a slice bound goes) and lowers the rank sum, the ``cosmetic_key``
component right after them, so it is always strictly smaller.
"""
from __future__ import annotations

import torch

from ...ops.registry import CATALOG
from ...program.interpret import _alloc_dims
from ...model import Program, Ref, Stmt, TensorArg, refs_in
from ...program import edits
from .base import Candidates, Pass
from .common import input_decls, tensor_arg
from ...program.edits import input_arg, replace_input


class _Refuse(Exception):
    """The drop reaches an op it cannot be carried through."""


def rank_sum(program: Program) -> int:
    """The summed rank of the tensor inputs: what this pass lowers."""
    return sum(a.ndim for a in program.inputs or () if isinstance(a, TensorArg))


# ---- the declaration and its TensorArg ----
def _without(seq: tuple, d: int) -> tuple:
    return tuple(seq[:d]) + tuple(seq[d + 1:])


def _renumbered_order(order: tuple, d: int) -> tuple:
    """A stride order (rank per logical dim) without dim ``d``: the ranks above its rank move down."""
    gone = order[d]
    return tuple(o - (o > gone) for o in _without(order, d))


def _decl_rank(s: Stmt) -> int | None:
    shape = s.arg("shape")
    if isinstance(shape, tuple):
        return len(shape)
    sizes = s.arg("sizes")
    return len(sizes) if isinstance(sizes, tuple) else None


def drop_decl(s: Stmt, a: TensorArg, d: int) -> tuple[Stmt, TensorArg] | None:
    """The declaration and ``TensorArg`` of an input without its extent-1 dim ``d``, or None where
    the declaration does not spell its dims out (a ``Vector`` shape)."""
    r = a.ndim
    if not s.is_tensor_decl or a.shape[d] != 1 or _decl_rank(s) != r:
        return None
    order = s.arg("stride_order")
    if order is not None and not (isinstance(order, tuple) and len(order) == r):
        return None
    new = s
    for key in ("shape", "sizes", "strides", "contiguous"):   # per logical dim
        v = s.arg(key)
        if isinstance(v, tuple) and len(v) == r:
            new = new.with_arg(key, _without(v, d))
    c = s.arg("contiguity")
    if isinstance(c, tuple) and len(c) == r:                  # per allocation position
        new = new.with_arg("contiguity", _without(c, _alloc_dims(order or (), r).index(d)))
    if order is not None:
        new = new.with_arg("stride_order", _renumbered_order(order, d))
    return new, tensor_arg(_without(a.shape, d), _without(a.strides, d), a.dtype, a.device)


# ---- following the dropped dim through the program ----
def _norm(d: int, r: int) -> int:
    if not -max(r, 1) <= d < max(r, 1):
        raise _Refuse(f"dim {d} out of range")
    return d % max(r, 1)


def _renum(d: int, r: int, p: int) -> int:
    """Dim ``d`` of a rank-``r`` value once its dim ``p`` is gone, written as it was (a negative
    dim stays negative)."""
    nd = _norm(d, r)
    new = nd - (nd > p)
    return new - (r - 1) if d < 0 else new


def _dim_list(v) -> tuple[list[int], bool]:
    """(dims, given as a bare int) of an ``int``-or-list parameter."""
    if isinstance(v, bool) or not isinstance(v, (int, tuple)):
        raise _Refuse("dims not literal")
    dims = [v] if isinstance(v, int) else list(v)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in dims):
        raise _Refuse("dims not literal")
    return dims, isinstance(v, int)


def _one_dim(s: Stmt, r: int, p: int, default: int | None) -> tuple[Stmt, None]:
    """Renumber the ``dim`` parameter of an op whose dim must not be the dropped one."""
    d = s.arg("dim", default)
    if not isinstance(d, int) or isinstance(d, bool) or _norm(d, r) == p:
        raise _Refuse("op works along the dropped dim")
    new = _renum(d, r, p)
    return (s.with_arg("dim", new) if s.has("dim") or new != d else s), None


class _Walk:
    """One pass over the statements, carrying ``where[name]``: the position of the dropped dim in
    that value (absent: the value is as before). ``rank[name]`` is its rank in the original."""

    def __init__(self, program: Program, info, drops: dict[int, int]):
        self.program, self.info, self.drops = program, info, drops
        self.where: dict[str, int] = {}
        self.rank: dict[str, int] = {}

    def run(self) -> Program:
        program = self.program
        stmts = list(program.stmts)
        live = edits.live(program)   # dead code goes anyway: it needs no renumbering
        for i, s in enumerate(program.stmts):
            if not self.info.known(i) and i in live and (
                    i in self.drops or any(r.name in self.where for _, v in s.args for r in refs_in(v))):
                raise _Refuse("beyond the statement fmin's static check rejects")
            if i not in live:
                out = {}
            elif i in self.drops:
                d = self.drops[i]
                new = drop_decl(s, input_arg(program, i), d)
                if new is None:
                    raise _Refuse("declaration")
                program = replace_input(program, i, *new)
                stmts[i], out = new[0], {s.outs[0]: d}
            elif any(r.name in self.where for _, v in s.args for r in refs_in(v)):
                stmts[i], p = self._rewrite(i, s)
                out = {n: p for n in s.outs if n is not None and p is not None and self._is_tensor(i, n)}
            else:
                out = {}
            for n in s.outs:
                if n is not None:
                    self.where.pop(n, None)
            self.where.update(out)
            for n, v in (self.info.values[i] if self.info.known(i) else {}).items():
                if isinstance(v, torch.Tensor):
                    self.rank[n] = v.ndim
                else:
                    self.rank.pop(n, None)
        return program.replace(stmts=tuple(stmts))

    def _is_tensor(self, i: int, name: str) -> bool:
        return isinstance(self.info.value(i, name), torch.Tensor)

    def _out_rank(self, i: int, s: Stmt) -> int:
        v = self.info.value(i, s.outs[0]) if s.outs else None
        if not isinstance(v, torch.Tensor):
            raise _Refuse("no tensor result")
        return v.ndim

    def _arg(self, s: Stmt, param: str = "arg") -> tuple[int, int]:
        """(rank, dropped position) of the tensor operand ``param``, which must carry the drop
        and be the only operand that does."""
        v = s.arg(param)
        hit = [r.name for _, val in s.args for r in refs_in(val) if r.name in self.where]
        if not isinstance(v, Ref) or hit != [v.name]:
            raise _Refuse("the drop reaches another operand")
        return self.rank[v.name], self.where[v.name]

    def _rewrite(self, i: int, s: Stmt) -> tuple[Stmt, int | None]:
        """The statement with its dim arguments renumbered by its op's ``dim_rule`` (catalog)."""
        spec = CATALOG.get(s.call)
        rule = RULES.get(spec.dim_rule) if spec is not None else None
        if rule is None:
            raise _Refuse(f"{s.op} is not followed")
        return rule(self, i, s)

    def _pointwise(self, i: int, s: Stmt) -> tuple[Stmt, int | None]:
        return s, self._elementwise(i, s)

    def _elementwise(self, i: int, s: Stmt) -> int | None:
        """Operands align from the right: the result carries the drop at one position only if
        every operand carrying it has it there and no other operand reaches that far left; or,
        where every drop was an operand's leading dim, the other operands keep the result's
        rank and nothing moves."""
        big = self._out_rank(i, s)
        ops = [(self.rank[r.name], self.where.get(r.name)) for _, v in s.args for r in refs_in(v)
               if r.name in self.rank]
        hit = [(r, p) for r, p in ops if p is not None]
        rest = [r for r, p in ops if p is None]
        if rest and max(rest) == big:
            if all(p == 0 for _, p in hit):
                return None
            raise _Refuse("operands would realign")
        qs = {p + big - r for r, p in hit}
        if len(qs) != 1:
            raise _Refuse("operands drop different dims")
        q = qs.pop()
        if any(r > big - 1 - q for r in rest):
            raise _Refuse("operands would realign")
        return q


def _reduction(w: _Walk, i: int, s: Stmt):
    r, p = w._arg(s)
    keep = bool(s.arg("keepdim", False))
    dims = s.arg("dims")
    if dims is None:
        return s, (p if keep else None)
    ds, bare = _dim_list(dims)
    norm = {_norm(d, r) for d in ds}
    left = [_renum(d, r, p) for d in ds if _norm(d, r) != p]
    if not left:
        raise _Refuse("reduces the dropped dim alone")
    new = s.with_arg("dims", left[0] if bare and len(left) == 1 else tuple(left))
    if keep:
        return new, p
    return new, (None if p in norm else p - sum(1 for d in norm if d < p))


def _permute(w: _Walk, i: int, s: Stmt):
    r, p = w._arg(s)
    ds, _ = _dim_list(s.arg("dims"))
    norm = [_norm(d, r) for d in ds]
    if sorted(norm) != list(range(r)):
        raise _Refuse("not a permutation")
    return s.with_arg("dims", tuple(_renum(d, r, p) for d in ds if _norm(d, r) != p)), norm.index(p)


def _squeeze(w: _Walk, i: int, s: Stmt):
    r, p = w._arg(s)
    ds, bare = _dim_list(s.arg("dims"))
    norm = {_norm(d, r) for d in ds}
    left = [_renum(d, r, p) for d in ds if _norm(d, r) != p]
    new = s.with_arg("dims", left[0] if bare and len(left) == 1 else tuple(left))
    return new, (None if p in norm else p - sum(1 for d in norm if d < p))


def _broadcast_in_dim(w: _Walk, i: int, s: Stmt):
    """The dropped dim's output dim becomes a new broadcast of the same extent."""
    r, p = w._arg(s)
    bd = s.arg("broadcast_dims")
    if not isinstance(bd, tuple) or len(bd) != r:
        raise _Refuse("broadcast_dims")
    shape = s.arg("shape")
    if isinstance(shape, tuple) and shape[bd[p]] == -1:
        raise _Refuse("-1 keeps the dropped dim's extent")  # a new dim has none to keep
    return s.with_arg("broadcast_dims", _without(bd, p)), None


def _broadcast(w: _Walk, i: int, s: Stmt):
    """The output dim the dropped dim fed becomes a new broadcast dim (extent 1, as it was)."""
    r, p = w._arg(s)
    flags = s.arg("is_broadcast_dim")
    if not isinstance(flags, tuple):
        raise _Refuse("is_broadcast_dim")
    kept = [k for k, f in enumerate(flags) if not f]
    if len(kept) != r:
        raise _Refuse("is_broadcast_dim")
    k = kept[p]
    return s.with_arg("is_broadcast_dim", flags[:k] + (True,) + flags[k + 1:]), None


def _reshape(w: _Walk, i: int, s: Stmt):
    """The elements keep their order, so the result is as it was."""
    r, p = w._arg(s)
    old = s.arg("original_shape")
    if isinstance(old, tuple) and len(old) == r:
        s = s.with_arg("original_shape", _without(old, p))
    return s, None


def _expand(w: _Walk, i: int, s: Stmt):
    r, p = w._arg(s)
    shape = s.arg("shape")
    if not isinstance(shape, tuple) or len(shape) < r:
        raise _Refuse("expand shape")
    q = p + len(shape) - r
    if shape[q] not in (1, -1) or isinstance(shape[q], bool):
        raise _Refuse("expands the dropped dim")
    return s.with_arg("shape", _without(shape, q)), q


def _slice(w: _Walk, i: int, s: Stmt):
    r, p = w._arg(s)
    new = s
    for key in ("start_indices", "end_indices", "strides"):
        v = s.arg(key)
        if v is None and key == "strides":
            continue
        if not isinstance(v, tuple) or len(v) != r:
            raise _Refuse("slice bounds")
        new = new.with_arg(key, _without(v, p))
    start, end = s.arg("start_indices")[p], s.arg("end_indices")[p]
    if start != 0 or isinstance(end, (bool, Ref)) or not isinstance(end, int) or end < 1:
        raise _Refuse("slices the dropped dim")
    return new, p


def _pad(w: _Walk, i: int, s: Stmt):
    """Width pairs run from the last dim: the dropped dim's pair (it must pad nothing) goes."""
    r, p = w._arg(s)
    widths = s.arg("pad_widths")
    if not isinstance(widths, tuple):
        raise _Refuse("pad widths")
    j = r - 1 - p
    if len(widths) > 2 * j:
        if widths[2 * j:2 * j + 2] != (0, 0):
            raise _Refuse("pads the dropped dim")
        widths = widths[:2 * j] + widths[2 * j + 2:]
    return s.with_arg("pad_widths", widths), p


def _cat(w: _Walk, i: int, s: Stmt):
    ts = s.arg("tensors")
    if not isinstance(ts, tuple) or not ts or not all(isinstance(t, Ref) for t in ts):
        raise _Refuse("cat operands")
    got = {(w.rank[t.name], w.where.get(t.name)) for t in ts}
    if len(got) != 1 or next(iter(got))[1] is None:
        raise _Refuse("cat operands drop different dims")
    r, p = got.pop()
    new, _ = _one_dim(s, r, p, 0)
    return new, p


def _stride_order(w: _Walk, i: int, s: Stmt):
    r, p = w._arg(s)
    order = s.arg("stride_order")
    if not isinstance(order, tuple) or len(order) != r:
        raise _Refuse("stride_order")
    return s.with_arg("stride_order", _renumbered_order(order, p)), p


def _size(w: _Walk, i: int, s: Stmt):
    r, p = w._arg(s)
    return _one_dim(s, r, p, None)


def _scan(w: _Walk, i: int, s: Stmt):
    r, p = w._arg(s)
    new, _ = _one_dim(s, r, p, -1 if s.op == "topk" else None)
    return new, p


def _add_output(w: _Walk, i: int, s: Stmt):
    """An output keeps its values, one dim fewer; an in-place alias must lose the same dim."""
    out, alias = s.arg("output"), s.arg("alias_input")
    p = w.where.get(out.name) if isinstance(out, Ref) else None
    if alias is not None and (not isinstance(alias, Ref) or w.where.get(alias.name) != p):
        raise _Refuse("alias")
    order = s.arg("stride_order")
    if p is not None and isinstance(order, tuple):
        if len(order) != w.rank[out.name]:
            raise _Refuse("output stride_order")
        s = s.with_arg("stride_order", _renumbered_order(order, p))
    return s, None


#: the catalog's ``DIM_RULES`` (``OpSpec.dim_rule``) -> how this pass carries a drop through the op;
#: ``not-followed`` has no entry (a drop that reaches such an op is refused)
RULES = {
    "pointwise": _Walk._pointwise, "reduction": _reduction, "scan": _scan, "size": _size, "cat": _cat,
    "permute": _permute, "squeeze": _squeeze, "broadcast_in_dim": _broadcast_in_dim,
    "broadcast": _broadcast, "reshape": _reshape, "expand": _expand, "slice": _slice, "pad": _pad,
    "stride_order": _stride_order, "add_output": _add_output,
}


def drop(program: Program, info, drops: dict[int, int]) -> Program | None:
    """The program with dim ``drops[i]`` gone from the input declared at statement ``i``, every
    op it reaches renumbered; None where some op cannot follow."""
    try:
        return _Walk(program, info, drops).run()
    except _Refuse:
        return None


# ---- what to try ----
def unit_dims(program: Program) -> list[tuple[int, list[int]]]:
    """(declaration index, its extent-1 dims) for every live tensor input that has some."""
    out = []
    live = edits.live(program)
    for i in input_decls(program):
        if i not in live:
            continue
        a = input_arg(program, i)
        if isinstance(a, TensorArg) and program.stmts[i].is_tensor_decl:
            dims = [d for d, x in enumerate(a.shape) if x == 1]
            if dims:
                out.append((i, dims))
    return out


def plans(program: Program) -> list[dict[int, int]]:
    """Coarse to fine: one dim position of every same-rank input that is 1 there (when two or
    more are), then each input's extent-1 dims one at a time."""
    groups: dict[tuple[int, int], list[int]] = {}
    singles = []
    for i, dims in unit_dims(program):
        r = input_arg(program, i).ndim
        for d in dims:
            groups.setdefault((r, d), []).append(i)
            singles.append({i: d})
    shared = [dict.fromkeys(g, d) for (r, d), g in sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))
              if len(g) > 1]
    return shared + singles


class FewerDims(Pass):
    name = "fewer-dims"
    cosmetic = True

    def candidates(self, program, info, start=0) -> Candidates:
        seen = {program}
        for pos, plan in enumerate(plans(program)):
            if pos < start:
                continue
            cand = drop(program, info, plan)
            if cand is not None and cand not in seen:
                seen.add(cand)
                yield pos, cand
