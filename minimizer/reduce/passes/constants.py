"""Merge equal constants (cosmetic): ``S10 = define_scalar(16, dtype=DataType.Int)`` and
``S27 = define_scalar(16, dtype=DataType.Int)`` become one; the later one's uses read the earlier
and it dies. nvFuser's printer writes a fresh ``define_scalar`` for every number it meets (the
LayerNorm seeds have five ``16``s and five ``512``s, each in its own ``define_vector``), so a repro
is often left with a block of identical lines. Equal means the same call, value (of the same
Python type; ``-0.0`` is not ``0.0``) and dtype. Legacy ``define_vector([...])`` lists merge the
same way once their entries are the same constants.

Candidates, scalars before vectors (merging scalars is what makes vectors equal): every class at
once, then one class at a time, then (in classes of three or more) one pair at a time, like
``MergeInputs``. ``cost`` is (scalar constants beyond the first of their class, the same for
vectors): merging scalars lowers the first even where it makes two vectors equal, merging vectors
lowers the second, and removing a ``define_scalar`` line raises nothing before them in
``cosmetic_key`` (it can only lower the extent sum and the count of non-simple scalars).
"""
from __future__ import annotations

from ...model import Ref, is_input_decl
from ...program import edits
from .base import Candidates, Pass


def _key(s) -> tuple | None:
    """What makes two constant statements interchangeable; None for anything else."""
    if is_input_decl(s) or len(s.outs) != 1 or s.outs[0] is None:
        return None
    if s.is_scalar_def:
        v = s.arg("value")
        if isinstance(v, (Ref, tuple)):
            return None
    elif s.is_vector_def:
        v = s.arg("values")
        if not isinstance(v, tuple):
            return None
    else:
        return None
    return (s.call, type(v).__name__, repr(v), tuple((k, repr(x)) for k, x in s.args if k not in ("value", "values")))


def classes(program, vectors: bool = False) -> list[list[int]]:
    """Groups (statement indices, in order) of equal scalar constants (or vectors) whose names are
    bound once (a later use then sees the earlier one's binding)."""
    bound: dict[str, int] = {}
    for s in program.stmts:
        for n in s.outs:
            if n is not None:
                bound[n] = bound.get(n, 0) + 1
    groups: dict[tuple, list[int]] = {}
    for i, s in enumerate(program.stmts):
        if s.is_vector_def != vectors:
            continue
        key = _key(s)
        if key is not None and bound[s.outs[0]] == 1:
            groups.setdefault(key, []).append(i)
    return [g for g in groups.values() if len(g) > 1]


def cost(program) -> tuple[int, int]:
    return (sum(len(g) - 1 for g in classes(program)), sum(len(g) - 1 for g in classes(program, vectors=True)))


def merge(program, pairs: list[tuple[int, int]]):
    """Uses of constant ``j`` read constant ``i`` instead, for each (i, j); ``j`` goes."""
    for i, j in pairs:
        program = edits.replace_uses(program, j, program.stmts[j].outs[0], Ref(program.stmts[i].outs[0]))
    return edits.remove_stmts(program, {j for _, j in pairs})


def _plans(groups: list[list[int]]) -> list[list[tuple[int, int]]]:
    plans = [[(g[0], j) for g in groups for j in g[1:]]] if len(groups) > 1 else []
    plans += [[(g[0], j) for j in g[1:]] for g in groups]
    plans += [[(a, b)] for g in groups if len(g) > 2 for x, a in enumerate(g) for b in g[x + 1:]]
    return plans


class MergeConstants(Pass):
    name = "merge-constants"
    cosmetic = True

    def candidates(self, program, info, start=0) -> Candidates:
        plans = _plans(classes(program)) + _plans(classes(program, vectors=True))
        for pos, plan in enumerate(plans):
            if pos >= start:
                yield pos, merge(program, plan)
