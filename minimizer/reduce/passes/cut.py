"""Cuts: the program is cut at an intermediate value.

``CutAtIntermediate``: make one tensor value the fusion's only output, so that everything
downstream of it (and every other output) dies. This is the FX minifier's "truncate suffix"; its
candidates, and the order they come in (bisecting from the end, then latest-first), are
``program.cuts.cuts_at_intermediates``, which the seeded fuzzer's ``cut`` mutation draws from too.

``RepointOutput``: the same cut for one output while the other outputs stay: the output reads a
value upstream of it instead, in the same order (a program with one output gets nothing here:
that is ``CutAtIntermediate``).

``SplitAtOp``: an intermediate becomes an output while the other outputs stay, and the op that
read it is cut out: its result becomes a new input (declared as ``ValueToInput`` declares one)
and every value it read that an op computes becomes an output. One op fewer, nothing else lost:
``sum -> broadcast_in_dim -> sum`` becomes two sums, each an output — the move that takes a
one-output program to several outputs, which no other pass makes. Ops are taken latest first;
an op whose result is only an output is ``OutputToOperand``'s.
"""
from __future__ import annotations

from ...model import Ref, output_stmt
from ...program import edits
from ...program.cuts import cuts_at_intermediates, schedule, to_inputs
from ...program.declare import is_tensor
from ...program.edits import remove_stmts, smaller
from .base import Candidates, Pass
from .outputs import output_values, plain_outputs, repoint


class CutAtIntermediate(Pass):
    name = "cut"

    def candidates(self, program, info, start=0) -> Candidates:
        yield from cuts_at_intermediates(program, info, start)


class RepointOutput(Pass):
    name = "repoint-output"

    def candidates(self, program, info, start=0) -> Candidates:
        if sum(1 for s in program.stmts if s.is_output) < 2:
            return
        defs = edits.definitions(program)
        pos = -1
        for k, j, _ in plain_outputs(program, defs):
            values = [(i, n) for i in sorted(edits.upstream(program, k) - {j}) if program.stmts[i].is_op
                      for n in program.stmts[i].outs
                      if n is not None and defs[k].get(n) == i and is_tensor(info.value(i, n))]
            for x in schedule(len(values)):
                pos += 1
                if pos < start:
                    continue
                cand = repoint(program, defs, k, [values[x]])
                if smaller(program, cand):
                    yield pos, cand


class SplitAtOp(Pass):
    name = "split"

    def candidates(self, program, info, start=0) -> Candidates:
        defs = edits.definitions(program)
        end = edits.final_bindings(program)
        users = edits.users(program)
        pos = -1
        for j in range(len(program.stmts) - 1, -1, -1):
            s = program.stmts[j]
            if not s.is_op or len(s.outs) != 1 or s.outs[0] is None or not is_tensor(info.value(j, s.outs[0])):
                continue
            if not any(program.stmts[u].is_op for u in users[j]):
                continue  # only outputs read it: OutputToOperand
            reads = [(p, n) for n in dict.fromkeys(s.uses()) if (p := defs[j].get(n)) is not None
                     and program.stmts[p].is_op and end.get(n) == p and is_tensor(info.value(p, n))]
            if not reads:
                continue  # only inputs and constants: ValueToInput
            pos += 1
            if pos < start:
                continue
            cand = split(program, info, j, reads)
            if cand is not None and smaller(program, cand):
                yield pos, cand


def split(program, info, j: int, reads: list[tuple[int, str]]):
    """Statement ``j`` cut out: its result a new input for the ops that read it (an output of it
    goes), the op-computed values in ``reads`` outputs at the end."""
    have = output_values(program, edits.definitions(program))
    cand = to_inputs(program, info, [(j, program.stmts[j].outs[0])])
    if cand is None:
        return None
    fresh = Ref(cand.stmts[j].outs[0])  # the declaration went in just before the op
    cand = remove_stmts(cand, {k for k, s in enumerate(cand.stmts) if s.is_output and s.arg("output") == fresh})
    new = tuple(output_stmt(Ref(n)) for p, n in reads if (p, n) not in have)
    return cand.replace(stmts=cand.stmts + new)
