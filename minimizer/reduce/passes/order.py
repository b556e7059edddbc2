"""Canonical input order (cosmetic): every input declaration at the top of the fusion, in the
order of their first use, with the ``inputs`` list permuted to match. Two scripts that differ
only in where inputs are declared then print the same, and a reader meets each input just before
it matters. One candidate, which is a fixpoint (so the pass cannot loop).

Needs every input name bound once (moving ``T0 = define_tensor`` above another binding of ``T0``
would change what later uses see); after ``Rename`` that always holds.
"""
from __future__ import annotations

from ...program import edits
from .base import Candidates, Pass
from .common import bound_once, input_decls


def _first_use_order(program) -> list[int]:
    """Declaration indices sorted by the first statement that reads each (binding-aware)."""
    uses = edits.users(program)
    decls = input_decls(program)
    end = len(program.stmts)
    return sorted(decls, key=lambda i: (min(uses[i], default=end), i))


def canonical_decl_order(program) -> list[int] | None:
    """Declaration indices in canonical order, or None when names are rebound."""
    if not bound_once(program):
        return None
    return _first_use_order(program)


def cost(program) -> int:
    """How far the declarations are from canonical: pairs out of order, plus declarations that
    come after a non-declaration statement. (Renaming never changes it.)"""
    want = _first_use_order(program)
    decls = input_decls(program)
    rank = {i: r for r, i in enumerate(want)}
    inv = sum(1 for a in range(len(decls)) for b in range(a + 1, len(decls)) if rank[decls[a]] > rank[decls[b]])
    late = sum(1 for r, i in enumerate(decls) if i != r)
    return inv + late


def reorder(program):
    want = canonical_decl_order(program)
    if want is None:
        return program
    slots = edits.input_slots(program)
    decls = set(want)
    stmts = tuple(program.stmts[i] for i in want) + tuple(s for i, s in enumerate(program.stmts) if i not in decls)
    inputs = program.inputs
    if inputs is not None:
        inputs = tuple(inputs[k] for i in want for k in slots[i])
    return program.replace(stmts=stmts, inputs=inputs)


class CanonicalInputOrder(Pass):
    name = "input-order"
    cosmetic = True

    def candidates(self, program, info, start=0) -> Candidates:
        if start > 0 or cost(program) == 0:
            return
        cand = reorder(program)
        if cand != program:
            yield 0, cand
