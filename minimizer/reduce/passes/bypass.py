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
from ...model import Ref, Stmt
from ...program import edits
from ...program.cuts import chunks
from ...program.declare import bcast_flags, is_scalar, is_tensor
from ...program.edits import smaller
from .base import Candidates, Pass


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


# ---- stand-ins that are not exact: another dtype, a broadcast ----
def _operand(program, defs, i: int, v):
    """The binding statement of Ref ``v`` as statement ``i`` sees it, or None when ``v`` is not a
    Ref or its name is bound again from ``i`` on (its uses would then mean another value)."""
    if not isinstance(v, Ref) or v.name not in defs[i] or any(v.name in t.outs for t in program.stmts[i:]):
        return None
    return defs[i][v.name]


class BypassCast(Pass):
    """A ``cast`` to another dtype goes: its users read the operand, so the value flows on in the
    operand's dtype (``T15 = cast(T4 bf16, Float)``; ``sum(T15)`` becomes ``sum(T4)``, in
    BFloat16). The users are retyped by the ops themselves (nvFuser promotes, and Half/BFloat16
    arithmetic returns Float anyway); a cast further down that now casts to its operand's own dtype
    is a no-op that ``Bypass`` drops, and a user that needs the old dtype (a ``cat`` with Float
    operands, a ``where`` condition) makes the candidate ill-formed, which the static check
    rejects before any run. One cast at a time, in program order."""
    name = "bypass-cast"

    def candidates(self, program, info, start=0) -> Candidates:
        defs = edits.definitions(program)
        pos = -1
        for i, s in enumerate(program.stmts):
            if s.op != "cast" or len(s.outs) != 1 or s.outs[0] is None:
                continue
            j = _operand(program, defs, i, s.arg("arg"))
            res = info.value(i, s.outs[0])
            op = info.value(j, s.arg("arg").name) if j is not None else None
            if not (is_tensor(res) and is_tensor(op)) or op.dtype == res.dtype:
                continue  # same dtype: Bypass's
            pos += 1
            if pos >= start:
                yield pos, bypass(program, [(i, "arg")])


class BypassBroadcast(Pass):
    """A binary op with a broadcast operand (``mul(T8, T14)``, ``T14`` a broadcast of a smaller
    tensor) goes, keeping one operand:

    1. the non-broadcast operand, when only its dtype differs from the result's (a BFloat16
       operand of an op that returns Float; same dtype is ``Bypass``'s): every shape stays;
    2. the broadcast operand, when it already has the result's shape (an expanded broadcast:
       ``broadcast_in_dim(T13, shape=[2, 16, 64], ...)``, the traces' style): every shape stays;
    3. otherwise (``T14`` is ``[N, 1]`` where the result is ``[N, D]``) the broadcast operand as it
       is — the shapes downstream change, and a reduction over that dim or an elementwise op with
       a full tensor takes it in its stride; where nothing does, the static check rejects it —
    4. and the broadcast operand expanded to the result's shape (the op becomes
       ``expand(T14, shape=[...])``), which keeps every shape but removes no op, so it is only
       proposed when the other operand then dies.

    Downstream ops now meet a broadcast where a full tensor was: the static check (nvFuser's
    broadcast rule) decides whether that is well-formed. One op at a time, in program order."""
    name = "bypass-broadcast"

    def candidates(self, program, info, start=0) -> Candidates:
        defs = edits.definitions(program)
        pos = -1
        for i, s in enumerate(program.stmts):
            spec = lookup(s.call)
            if spec is None or spec.family != "binary" or spec.bypass != ("lhs", "rhs") \
                    or len(s.outs) != 1 or s.outs[0] is None:
                continue
            res = info.value(i, s.outs[0])
            ops = [(p, j) for p in spec.bypass if (j := _operand(program, defs, i, s.arg(p))) is not None]
            if len(ops) != 2 or not is_tensor(res):
                continue
            vals = {p: info.value(j, s.arg(p).name) for p, j in ops}
            if not all(is_tensor(v) and v.ndim == res.ndim for v in vals.values()):
                continue
            rflags = bcast_flags(program, info, s.outs[0], res)
            full = {p: tuple(v.shape) == tuple(res.shape)
                    and bcast_flags(program, info, s.arg(p).name, v) == rflags for p, v in vals.items()}
            if full["lhs"] == full["rhs"]:
                continue  # neither (or both) a broadcast of the other
            keep_full = "lhs" if full["lhs"] else "rhs"
            keep_b = "rhs" if keep_full == "lhs" else "lhs"
            cands = []
            if vals[keep_full].dtype != res.dtype:
                cands.append(bypass(program, [(i, keep_full)]))
            b = vals[keep_b]
            if tuple(b.shape) == tuple(res.shape):
                cands.append(bypass(program, [(i, keep_b)]))
            else:
                cands.append(bypass(program, [(i, keep_b)]))
                expand = Stmt(s.outs, "ops.expand", (("arg", s.arg(keep_b)), ("shape", tuple(res.shape))), npos=1)
                cand = program.replace(stmts=program.stmts[:i] + (expand,) + program.stmts[i + 1:])
                if smaller(program, cand):
                    cands.append(cand)
            for cand in cands:
                pos += 1
                if pos >= start:
                    yield pos, cand
