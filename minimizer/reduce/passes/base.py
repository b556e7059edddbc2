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

from typing import Iterator

from ...program.model import Program
from ..static import Info

Candidates = Iterator[tuple[int, Program]]


class Pass:
    name = "pass"
    #: passes that only rename or reorder cannot make a program smaller by the size order; the
    #: driver accepts their candidates when they are canonically smaller (see driver.order_key)
    cosmetic = False

    def candidates(self, program: Program, info: Info, start: int = 0) -> Candidates:
        raise NotImplementedError


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
