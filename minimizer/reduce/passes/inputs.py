"""Merge inputs: two inputs declared the same way and fed the same kind of value (equal
``TensorArg``/``ScalarArg``) become one; the later declaration's uses read the earlier one and it
dies (the FX minifier's "consolidate inputs"). Unused inputs need no pass: dead code elimination
removes them with their ``inputs`` entries.

Candidates: every class of interchangeable inputs merged at once, then one class at a time, then
(in classes of three or more) one pair at a time. Then inputs fed the same value but declared
differently (a broadcast dim declared 1 in one, a symbolic extent in the other, as a new input
made from a broadcast value and an original input of one element are): per class of those, all
into the first, then one pair at a time. Those are guesses: the earlier declaration is what the
later one's uses now meet, which the static check (nvFuser's broadcast rule) may reject.
"""
from __future__ import annotations

from ...model import Ref
from ...program import edits
from .base import Candidates, Pass
from .common import input_decls
from ...program.edits import input_arg


def classes(program, loose: bool = False) -> list[list[int]]:
    """Groups (declaration indices, in order) of inputs that could stand in for each other:
    declared alike and fed equal values; with ``loose``, fed equal values however declared."""
    groups: dict[tuple, list[int]] = {}
    bound = [n for s in program.stmts for n in s.outs if n is not None]
    for i in input_decls(program):
        s = program.stmts[i]
        arg = input_arg(program, i)
        if arg is None or len(s.outs) != 1 or s.outs[0] is None or bound.count(s.outs[0]) != 1:
            continue
        groups.setdefault((s.call, arg) if loose else (s.call, s.args, s.npos, arg), []).append(i)
    return [g for g in groups.values() if len(g) > 1]


def merge(program, pairs: list[tuple[int, int]]):
    """Uses of input ``j``'s value read input ``i``'s instead, for each (i, j)."""
    for i, j in pairs:
        program = edits.replace_uses(program, j, program.stmts[j].outs[0], Ref(program.stmts[i].outs[0]))
    return program


class MergeInputs(Pass):
    name = "merge-inputs"

    def candidates(self, program, info, start=0) -> Candidates:
        groups = classes(program)
        plans = []
        if len(groups) > 1:
            plans.append([(g[0], j) for g in groups for j in g[1:]])
        plans += [[(g[0], j) for j in g[1:]] for g in groups]
        plans += [[(a, b)] for g in groups if len(g) > 2 for x, a in enumerate(g) for b in g[x + 1:]]
        strict = {frozenset(g) for g in groups}
        for g in classes(program, loose=True):
            if frozenset(g) in strict:
                continue
            plans.append([(g[0], j) for j in g[1:]])
            if len(g) > 2:
                plans += [[(a, b)] for x, a in enumerate(g) for b in g[x + 1:]
                          if program.stmts[a].args != program.stmts[b].args]
        for pos, plan in enumerate(plans):
            if pos >= start:
                yield pos, merge(program, plan)
