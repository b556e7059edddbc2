"""What a reduction pass is.

A pass proposes candidates, coarse to fine, each a whole new Program; it never runs anything.
``candidates(program, info, start)`` yields ``(position, candidate)`` with increasing positions;
after the driver accepts a candidate it calls the pass again on the new program with
``start=position``, so a pass resumes where it succeeded instead of starting over (the
Hypothesis shrinker's idiom) and still reaches every position of the new program. The driver
removes dead code from every candidate, checks it statically and caches it, so a pass can be a
plain description of an edit.
"""
from __future__ import annotations

from ...model import Program
from ...program.cuts import Candidates
from ...program.static import Info

__all__ = ["Candidates", "Pass"]


class Pass:
    name = "pass"
    #: passes that only rename or reorder cannot make a program smaller by the size order; the
    #: driver accepts their candidates when they are canonically smaller (see driver.order_key)
    cosmetic = False

    def candidates(self, program: Program, info: Info, start: int = 0) -> Candidates:
        raise NotImplementedError
