"""Shrink shapes (cosmetic): smaller extents, changed together wherever they must agree.

Every place that holds an extent-like integer is grouped by its value (``program.extents``:
input extents, static ``define_tensor`` extents, shape lists of ops, ``iota`` lengths, the scalars
that feed them), and a candidate changes a whole group at once: 1 first, then half. So 1024 in
an input and in a ``broadcast_in_dim`` shape shrink together; a 768 = 4*6*32 that a reshape
splits stays (the static check rejects the inconsistent candidates for free). Largest extents
first.
"""
from __future__ import annotations

from ...program.extents import resize, sites
from .base import Candidates, Pass


class ShrinkShapes(Pass):
    """``min_extent`` 2 (when the property reads the segmentation) keeps every extent that was
    at least 2 at 2 or more: an extent of 1 turns a dim into a broadcast, and nvFuser schedules a
    broadcast-only or scalar-like tensor differently — a segmentation met that way is not the
    user's."""
    name = "shrink-shapes"
    cosmetic = True

    def __init__(self, min_extent: int = 1):
        self.min_extent = max(1, min_extent)

    def candidates(self, program, info, start=0) -> Candidates:
        values = sorted({site[-1] for site in sites(program)}, reverse=True)
        pos = -1
        for v in values:
            for target in dict.fromkeys((self.min_extent, max(self.min_extent, v // 2))):
                if not 1 <= target < v:
                    continue
                pos += 1
                if pos >= start:
                    yield pos, resize(program, v, target)

