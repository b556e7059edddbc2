"""Cuts of a program, coarse to fine: outputs dropped, the fusion cut at an intermediate value,
regions of ops made inputs. Each is a generator of ``(position, candidate)`` with increasing
positions from ``start``, as a reduction pass's ``candidates`` are.

The reduction's structural passes are these generators (``DropOutputs``, ``CutAtIntermediate``,
``ValueToInput``), and the seeded fuzzer's ``cut`` mutation draws among their first candidates,
so a 200-op seed also yields its smaller pieces: one home for what a cut is, below both.

Which cut at an intermediate first? A cut keeps the bug only if the bug lives upstream of the
value, which is roughly monotone in the position of the value. So the first candidates bisect
from the end, like a binary search for the earliest good cut: drop the last half of the values,
then the last quarter, ..., then the last one (``schedule``). After those, every other value is
tried latest-first (closest to the original outputs: those cuts keep the most and so most often
keep the bug; they also reach side branches the bisection misses). Scalars and inputs are never
cut at.

A region made inputs is the FX minifier's key move (a node becomes a placeholder fed with a value
of its shape), chunked like ddmin over the op statements (``chunks``): for a window of ops
(halves, quarters, ..., single ops) every value that the rest of the program reads from the
window becomes an input declared where it was computed (``declare``); dead code elimination then
removes the whole upstream region the window alone kept alive. For a single ``permute`` or
``stride_order`` op whose result is laid out non-row-major, a second candidate keeps that layout
with ``stride_order``. Vectors stay computed.
"""
from __future__ import annotations

from typing import Iterator

from ..model import DType, Program, Ref, output_stmt
from ..ops import CATALOG
from . import edits
from .declare import alloc_order, bcast_flags, is_scalar, is_tensor, new_name, scalar_input, tensor_input
from .edits import remove_stmts, smaller

Candidates = Iterator[tuple[int, Program]]

#: ops whose result's layout is the point of the op (the catalog's ``"layout"`` tag; elsewhere
#: torch's meta strides say little about nvFuser's allocation, so only these get a layout-keeping
#: variant)
LAYOUT_OPS = frozenset(s.name for key, s in CATALOG.items() if key.startswith("ops.") and "layout" in s.tags)


def chunks(n: int) -> list[tuple[int, int]]:
    """(offset, length) windows over n items: halves, quarters, ... then single items — the
    ddmin schedule without complements (those are what the other chunks leave)."""
    out, size = [], max(1, n // 2) if n > 1 else 1
    while True:
        for off in range(0, n, size):
            out.append((off, min(size, n - off)))
        if size == 1:
            return out
        size = max(1, size // 2)


def schedule(m: int) -> list[int]:
    """Indices (0..m-1) of the values to cut at, in the order tried."""
    order: list[int] = []
    s = m // 2
    while s >= 1:
        k = m - 1 - s
        if k not in order:
            order.append(k)
        s //= 2
    order += [k for k in range(m - 1, -1, -1) if k not in order]
    return order


def dropped_outputs(program, info=None, start=0) -> Candidates:
    """Whole groups of ``add_output`` lines dropped (halves, quarters, ...), then single ones;
    what they alone kept alive dies with them. ``info`` is not needed (the other cuts' signature)."""
    outs = program.output_indices()
    if len(outs) < 2:
        return
    for pos, (off, n) in enumerate(chunks(len(outs))):
        if pos < start or n == len(outs):
            continue
        yield pos, remove_stmts(program, set(outs[off:off + n]))


def cuts_at_intermediates(program, info, start=0) -> Candidates:
    """One tensor value made the fusion's only output, so that everything downstream of it (and
    every other output) dies: the FX minifier's "truncate suffix", in ``schedule``'s order."""
    values = [(i, n) for i, s in enumerate(program.stmts) if s.is_op
              for n in s.outs if n is not None and is_tensor(info.value(i, n))]
    outs = program.output_indices()
    current = [program.stmts[i].arg("output") for i in outs]
    for pos, k in enumerate(schedule(len(values))):
        if pos < start:
            continue
        i, name = values[k]
        if current == [Ref(name)] and not _rebound_after(program, i, name, outs[0]):
            continue  # already the only output
        cut = remove_stmts(program, set(outs) | set(range(i + 1, len(program.stmts))))
        out = output_stmt(Ref(name))
        yield pos, cut.replace(stmts=cut.stmts + (out,))


def _rebound_after(program, i: int, name: str, until: int) -> bool:
    return any(name in s.outs for s in program.stmts[i + 1:until])


def values_to_inputs(program, info, start=0) -> Candidates:
    """For each window of ops (``chunks``), the values the rest of the program reads from it made
    inputs; a lone layout op's result also with its layout kept (``LAYOUT_OPS``)."""
    ops = [i for i, s in enumerate(program.stmts) if s.is_op]
    if not ops:
        return
    defs = edits.definitions(program)
    pos = -1
    for off, n in chunks(len(ops)):
        if n == len(ops):
            continue  # every op at once: a fusion of inputs only
        window = set(ops[off:off + n])
        escaping = _escaping(program, defs, window)
        variants = [False]
        if n == 1 and len(escaping) == 1 and program.stmts[escaping[0][0]].op in LAYOUT_OPS:
            i, name = escaping[0]
            t = info.value(i, name)
            if is_tensor(t) and alloc_order(t) not in (None, list(range(t.ndim))):
                variants.append(True)
        for keep_layout in variants:
            pos += 1
            if pos < start:
                continue
            cand = to_inputs(program, info, escaping, keep_layout)
            if cand is not None and smaller(program, cand):
                yield pos, cand


def _escaping(program, defs, window: set[int]) -> list[tuple[int, str]]:
    """(statement, name) of the values bound in ``window`` that statements outside it read."""
    out: set[tuple[int, str]] = set()
    for k, s in enumerate(program.stmts):
        if k in window:
            continue
        for name in s.uses():
            j = defs[k].get(name)
            if j in window:
                out.add((j, name))
    return sorted(out)


def to_inputs(program, info, values: list[tuple[int, str]], keep_layout: bool = False):
    """``program`` with each (statement, name) value replaced by a new input declared just before
    that statement; None if none of them can be."""
    changed = False
    for i, name in sorted(values, reverse=True):  # last first: earlier positions stay valid
        v = info.value(i, name)
        if is_tensor(v):
            kind = "tensor"
        elif is_scalar(v):
            kind = "scalar"
        else:
            continue
        fresh = new_name(program, kind)
        if kind == "tensor":
            alloc = alloc_order(v) if keep_layout else None
            decl = tensor_input(program, fresh, v, bcast_flags(program, info, name, v), alloc)
        else:
            s = program.stmts[i]
            dt = s.arg("dtype") if s.op == "cast" and isinstance(s.arg("dtype"), DType) else None
            decl = scalar_input(program, fresh, v, dt.name if dt is not None else None)
        if decl is None:
            continue
        program = edits.replace_uses(program, i, name, Ref(fresh))
        program = edits.insert_input(program, i, *decl)
        changed = True
    return program if changed else None
