"""Moves at the outputs.

``DropOutputs``: the coarsest cut. Whole groups of ``add_output`` lines go first (halves,
quarters, ...), then single ones; what they alone kept alive dies with them
(``program.cuts.dropped_outputs``, which the seeded fuzzer's ``cut`` mutation draws from too).

``OutputToOperand``: an output reads one of its producer's operands instead (``fd.add_output(T17)``
with ``T17 = cast(T16)`` becomes ``fd.add_output(T16)``), so the producer dies if nothing else
uses it; then all of the producer's operands at once (``T73 = add(T60, T72)`` as the output
becomes the two outputs ``T60`` and ``T72``: one op fewer for one output more, which the size
order counts as smaller). Only operands that ops compute are taken (an input as an output says
nothing), and only candidates that remove an op are proposed. The other outputs stay.
"""
from __future__ import annotations

from ...model import Ref, Stmt
from ...program import edits
from ...program.cuts import dropped_outputs
from ...program.declare import is_tensor
from ...program.edits import smaller
from .base import Candidates, Pass


class DropOutputs(Pass):
    name = "drop-outputs"

    def candidates(self, program, info, start=0) -> Candidates:
        yield from dropped_outputs(program, info, start)


# ---- outputs as values: helpers shared with the cut passes ----
def plain_outputs(program, defs) -> list[tuple[int, int, str]]:
    """(add_output index, index of the op statement that computes it, name) of every output that
    an op computes and that is written plainly (no ``alias_input``, no ``stride_order``)."""
    out = []
    for k, s in enumerate(program.stmts):
        if not s.is_output or len(s.args) != 1:
            continue
        v = s.arg("output")
        if isinstance(v, Ref) and v.name in defs[k] and program.stmts[defs[k][v.name]].is_op:
            out.append((k, defs[k][v.name], v.name))
    return out


def output_values(program, defs) -> set[tuple[int, str]]:
    """(binding statement, name) of every value that is already an output."""
    return {(defs[k][s.arg("output").name], s.arg("output").name) for k, s in enumerate(program.stmts)
            if s.is_output and isinstance(s.arg("output"), Ref) and s.arg("output").name in defs[k]}


def repoint(program, defs, k: int, values: list[tuple[int, str]]):
    """Output statement ``k`` reads ``values`` (binding statement, name) instead: the first in its
    place, the others just after it; a value that is already an output is not added twice."""
    ref = program.stmts[k].arg("output")
    have = output_values(program, defs) - {(defs[k][ref.name], ref.name)}
    new: list[Stmt] = []
    for j, name in dict.fromkeys(values):
        if (j, name) not in have:
            new.append(program.stmts[k].with_arg("output", Ref(name)))
    return program.replace(stmts=program.stmts[:k] + tuple(new) + program.stmts[k + 1:])


class OutputToOperand(Pass):
    name = "output-to-operand"

    def candidates(self, program, info, start=0) -> Candidates:
        defs = edits.definitions(program)
        pos = -1
        for k, j, _ in plain_outputs(program, defs):
            s = program.stmts[j]
            ops = []
            for name in dict.fromkeys(s.uses()):
                p = defs[j].get(name)
                if p is not None and program.stmts[p].is_op and is_tensor(info.value(p, name)) \
                        and defs[k].get(name) == p:
                    ops.append((p, name))
            plans = [[o] for o in ops] + ([ops] if len(ops) > 1 else [])
            seen: set[str] = set()
            for plan in plans:
                pos += 1
                if pos < start:
                    continue
                cand = repoint(program, defs, k, plan)
                key = repr(cand.stmts)
                if key not in seen and smaller(program, cand):
                    seen.add(key)
                    yield pos, cand
