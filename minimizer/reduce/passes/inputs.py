"""Merge inputs: two inputs declared the same way and fed the same kind of value (equal
``TensorArg``/``ScalarArg``) become one; the later declaration's uses read the earlier one and it
dies (the FX minifier's "consolidate inputs"). Unused inputs need no pass: dead code elimination
removes them with their ``inputs`` entries.

Candidates: every class of interchangeable inputs merged at once, then one class at a time, then
(in classes of three or more) one pair at a time.
"""
from __future__ import annotations

from ...model import Ref
from ...program import edits
from .base import Candidates, Pass
from .common import input_arg, input_decls


def classes(program) -> list[list[int]]:
    """Groups (declaration indices, in order) of inputs that could stand in for each other."""
    groups: dict[tuple, list[int]] = {}
    bound = [n for s in program.stmts for n in s.outs if n is not None]
    for i in input_decls(program):
        s = program.stmts[i]
        arg = input_arg(program, i)
        if arg is None or len(s.outs) != 1 or s.outs[0] is None or bound.count(s.outs[0]) != 1:
            continue
        groups.setdefault((s.call, s.args, s.npos, arg), []).append(i)
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
        for pos, plan in enumerate(plans):
            if pos >= start:
                yield pos, merge(program, plan)
