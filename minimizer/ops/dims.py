"""How FewerDims carries a dropped extent-1 dim through an op: the ``DimRule`` a catalog entry
names (``OpSpec.dim_rule``), one per kind of op, each defined in the family module of the ops that
use it (``reductions.REDUCTION``, ``shape.PERMUTE``, ``define.ADD_OUTPUT`` ...), beside them.

The pass (``reduce/passes/dims.py``) walks the program once and knows, at each statement, which
values carry the dropped dim and where (``Reach``); a rule rewrites the statement's dim
arguments for the value without that dim and says where the dim is in its result (None: the
result no longer has it, or never had it). A rule refuses (``NotFollowed``) what it cannot
renumber unambiguously — a reduction over the dropped dim alone, an operand that would realign —
and the pass then proposes nothing for that drop: a shorter repro is only worth having when it
still means the same thing. This module holds what rules share: the renumbering arithmetic,
``POINTWISE`` (elementwise ops and ``rand_like``) and ``NOT_FOLLOWED``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

from ..model import Ref, Stmt, refs_in


class NotFollowed(Exception):
    """The drop reaches an op that cannot carry it (FewerDims proposes nothing for that drop)."""


@dataclass(frozen=True)
class Reach:
    """Where the dropped dim is when it reaches one statement.

    ``where``: the values (by name) that carry it, and its position in each; ``rank``: every
    tensor value's rank before the drop; ``out_rank``: the rank of the statement's first result,
    None when that is not a tensor."""
    where: Mapping[str, int]
    rank: Mapping[str, int]
    out_rank: int | None = None

    def operand(self, s: Stmt, param: str = "arg") -> tuple[int, int]:
        """(rank, dropped position) of the tensor operand ``param``, which must carry the drop and
        be the only operand that does."""
        v = s.arg(param)
        hit = [r.name for _, val in s.args for r in refs_in(val) if r.name in self.where]
        if not isinstance(v, Ref) or hit != [v.name]:
            raise NotFollowed("the drop reaches another operand")
        return self.rank[v.name], self.where[v.name]


Follow = Callable[[Stmt, Reach], "tuple[Stmt, int | None]"]


@dataclass(frozen=True)
class DimRule:
    """One way of carrying the dropped dim through an op. ``follow(stmt, reach)`` -> (the
    statement renumbered, the dim's position in its result or None); None: not followed (a drop
    that reaches the op is refused). ``reads``: the parameters it reads, which an op given the
    rule must have (``tests/test_catalog_complete.py``)."""
    name: str
    follow: Follow | None = field(compare=False)
    reads: frozenset[str] = frozenset()
    doc: str = ""

    @property
    def followed(self) -> bool:
        return self.follow is not None


def dim_rule(name: str, reads: tuple[str, ...] = ()) -> Callable[[Follow], DimRule]:
    """Decorator: the function is the rule's ``follow``, its docstring the rule's ``doc``."""
    def make(fn: Follow) -> DimRule:
        return DimRule(name, fn, frozenset(reads), " ".join((fn.__doc__ or "").split()))
    return make


# ---- the arithmetic rules share ----
def without(seq: tuple, d: int) -> tuple:
    return tuple(seq[:d]) + tuple(seq[d + 1:])


def renumbered_order(order: tuple, d: int) -> tuple:
    """A stride order (rank per logical dim) without dim ``d``: the ranks above its rank move down."""
    gone = order[d]
    return tuple(o - (o > gone) for o in without(order, d))


def norm(d: int, r: int) -> int:
    if not -max(r, 1) <= d < max(r, 1):
        raise NotFollowed(f"dim {d} out of range")
    return d % max(r, 1)


def renum(d: int, r: int, p: int) -> int:
    """Dim ``d`` of a rank-``r`` value once its dim ``p`` is gone, written as it was (a negative
    dim stays negative)."""
    nd = norm(d, r)
    new = nd - (nd > p)
    return new - (r - 1) if d < 0 else new


def dim_list(v) -> tuple[list[int], bool]:
    """(dims, given as a bare int) of an ``int``-or-list parameter."""
    if isinstance(v, bool) or not isinstance(v, (int, tuple)):
        raise NotFollowed("dims not literal")
    dims = [v] if isinstance(v, int) else list(v)
    if not all(isinstance(x, int) and not isinstance(x, bool) for x in dims):
        raise NotFollowed("dims not literal")
    return dims, isinstance(v, int)


def one_dim(s: Stmt, r: int, p: int, default: int | None) -> Stmt:
    """The ``dim`` parameter (``default`` when not written) renumbered; refused when it is the
    dropped dim itself."""
    d = s.arg("dim", default)
    if not isinstance(d, int) or isinstance(d, bool) or norm(d, r) == p:
        raise NotFollowed("op works along the dropped dim")
    new = renum(d, r, p)
    return s.with_arg("dim", new) if s.has("dim") or new != d else s


# ---- the rules of no one family ----
@dim_rule("pointwise")
def POINTWISE(s: Stmt, at: Reach) -> tuple[Stmt, int | None]:
    """No dim arguments: operands align from the right, and the result carries the drop at one
    position only if every operand carrying it has it there and no other operand reaches that
    far left; or, where every drop was an operand's leading dim, the other operands keep the
    result's rank and nothing moves (elementwise ops, rand_like)."""
    big = at.out_rank
    if big is None:
        raise NotFollowed("no tensor result")
    ops = [(at.rank[r.name], at.where.get(r.name)) for _, v in s.args for r in refs_in(v) if r.name in at.rank]
    hit = [(r, p) for r, p in ops if p is not None]
    rest = [r for r, p in ops if p is None]
    if rest and max(rest) == big:
        if all(p == 0 for _, p in hit):
            return s, None
        raise NotFollowed("operands would realign")
    qs = {p + big - r for r, p in hit}
    if len(qs) != 1:
        raise NotFollowed("operands drop different dims")
    q = qs.pop()
    if any(r > big - 1 - q for r in rest):
        raise NotFollowed("operands would realign")
    return s, q


NOT_FOLLOWED = DimRule("not-followed", None, doc="a drop that reaches the op is not proposed (matmul, index ops, "
                                                 "factories, definitions: no unambiguous renumbering)")


__all__ = ["NotFollowed", "Reach", "DimRule", "dim_rule", "without", "renumbered_order", "norm", "renum", "dim_list",
           "one_dim", "POINTWISE", "NOT_FOLLOWED"]
