"""Turn op results into new fusion inputs (the FX minifier's key move: a node becomes a
placeholder fed with a value of its shape), so the ops above them die.

Chunked like ddmin over the op statements: for a window of ops (halves, quarters, ..., single
ops) every value that the rest of the program reads from the window becomes an input declared
where it was computed; dead code elimination then removes the whole upstream region the window
alone kept alive. A tensor becomes a ``define_tensor`` of the same shape and dtype, row-major
and contiguous, broadcast dims kept as broadcasts (extent 1 declared 1; expanded ones as stride-0
inputs); a scalar becomes ``define_scalar(None, dtype=...)`` with its value in ``inputs``. For a
single ``permute`` or ``stride_order`` op whose result is laid out non-row-major, a second
candidate keeps that layout with ``stride_order``. Vectors stay computed.
"""
from __future__ import annotations

from ...model import DType, Ref
from ...ops import CATALOG
from ...program import edits
from ..ddmin import chunks
from .base import Candidates, Pass
from .common import alloc_order, bcast_flags, is_scalar, is_tensor, new_name, scalar_input, smaller, tensor_input


#: ops whose result's layout is the point of the op (the catalog's ``"layout"`` tag; elsewhere
#: torch's meta strides say little about nvFuser's allocation, so only these get a layout-keeping
#: variant)
LAYOUT_OPS = frozenset(s.name for key, s in CATALOG.items() if key.startswith("ops.") and "layout" in s.tags)


class ValueToInput(Pass):
    name = "to-input"

    def candidates(self, program, info, start=0) -> Candidates:
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
