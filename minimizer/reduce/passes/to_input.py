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

The candidates are ``program.cuts.values_to_inputs`` (the declarations ``program.declare``'s), which
the seeded fuzzer's ``cut`` mutation draws from too.
"""
from __future__ import annotations

from ...program.cuts import values_to_inputs
from .base import Candidates, Pass


class ValueToInput(Pass):
    name = "to-input"

    def candidates(self, program, info, start=0) -> Candidates:
        yield from values_to_inputs(program, info, start)
