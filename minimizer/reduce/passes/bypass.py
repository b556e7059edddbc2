"""Bypass an op: read one of its operands instead of its result, when that operand has exactly
the result's shape and dtype (``cast`` to the same dtype, ``set``, ``segment_set``, unary math,
a binary op with a same-shaped operand...); the op then dies. The op catalog says which operands
may stand in (``OpSpec.bypass``).

Chunked over the bypassable ops (halves, quarters, ..., single ops), each op in a chunk taking
its first fitting operand; for a single op every fitting operand is tried in turn. "Fitting"
means the same shape, dtype and broadcast dims (a broadcast standing in for a full tensor would
meet other broadcasts of other extents); a scalar fits when it is a float, or an equal int (ints
may be extents).
"""
from __future__ import annotations

from ...ops import lookup
from ...model import Ref
from ...program import edits
from .base import Candidates, Pass, chunks
from .common import bcast_flags, is_scalar, is_tensor


def fitting(program, info, defs, i: int) -> list[str]:
    """The bypass parameters of statement ``i`` whose operand could replace its result."""
    s = program.stmts[i]
    spec = lookup(s.call)
    if spec is None or not spec.bypass or spec.n_outputs != 1 or len(s.outs) != 1 or s.outs[0] is None:
        return []
    res = info.value(i, s.outs[0])
    out = []
    for p in spec.bypass:
        v = s.arg(p)
        if not isinstance(v, Ref) or v.name not in defs[i] \
                or any(v.name in t.outs for t in program.stmts[i:]):  # rebound: the name would mean another value
            continue
        op = info.value(defs[i][v.name], v.name)
        if is_tensor(res) and is_tensor(op):
            if tuple(op.shape) == tuple(res.shape) and op.dtype == res.dtype \
                    and bcast_flags(program, info, v.name, op) == bcast_flags(program, info, s.outs[0], res):
                out.append(p)
        elif is_scalar(res) and is_scalar(op) and type(op) is type(res) and (isinstance(res, float) or op == res):
            out.append(p)  # ints may be extents: only an equal one may stand in
    return out


def bypass(program, choices: list[tuple[int, str]]):
    """Replace the uses of each statement's result by its chosen operand."""
    for i, p in choices:
        s = program.stmts[i]
        program = edits.replace_uses(program, i, s.outs[0], s.arg(p))
    return program


class Bypass(Pass):
    name = "bypass"

    def candidates(self, program, info, start=0) -> Candidates:
        defs = edits.definitions(program)
        ops = [(i, f) for i in range(len(program.stmts)) if (f := fitting(program, info, defs, i))]
        pos = -1
        for off, n in chunks(len(ops)):
            window = ops[off:off + n]
            options = [[(i, f[0]) for i, f in window]]
            if n == 1:
                i, f = window[0]
                options += [[(i, p)] for p in f[1:]]
            for choice in options:
                pos += 1
                if pos >= start:
                    yield pos, bypass(program, choice)
