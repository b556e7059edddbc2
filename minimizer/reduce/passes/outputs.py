"""Drop outputs: the coarsest cut. Whole groups of ``add_output`` lines go first (halves,
quarters, ...), then single ones; what they alone kept alive dies with them."""
from __future__ import annotations

from ...program.edits import remove_stmts
from .base import Candidates, Pass, chunks


class DropOutputs(Pass):
    name = "drop-outputs"

    def candidates(self, program, info, start=0) -> Candidates:
        outs = [i for i, s in enumerate(program.stmts) if s.call == "add_output"]
        if len(outs) < 2:
            return
        for pos, (off, n) in enumerate(chunks(len(outs))):
            if pos < start or n == len(outs):
                continue
            yield pos, remove_stmts(program, set(outs[off:off + n]))
