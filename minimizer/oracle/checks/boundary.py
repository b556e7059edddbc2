"""``--boundary [P:C,...]``: the run keeps a kernel boundary of the given kinds — a producing
kernel of scheduler P joined to a consuming kernel of scheduler C by an intermediate tensor,
directly or through non-kernel segments (see ``segments.SegmentGraph.boundaries``).

This is what "the fusion splits into 3 kernels instead of 1" is about: not the count, but a
boundary the compiler would not fuse through. A bare ``--boundary`` takes the original run's
boundaries; the candidate must keep one of them — with the same reason where nvFuser gave one
(its segmenter log: "inner_persistent: not enough registers ..."), so a reduction cannot slip from
one cause of a split to another that happens to join the same kinds of kernel. It is the heart of the default property of a
segmented original, so a reduction ends at the smallest fusion that still splits *the same way*
rather than at unrelated pieces that happen to make as many segments.
"""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import ClassVar

from ...segments import SegmentGraph
from .base import SAME, Check, register

#: (producer kind, consumer kind) or (producer kind, consumer kind, reason); a reason of None is
#: not known (and then any reason does)
Kinds = tuple


def _fmt(kinds: Kinds) -> str:
    words = f"{kinds[0] or '?'} → {kinds[1] or '?'}"
    return words + (f" (not merged: {kinds[2]})" if len(kinds) > 2 and kinds[2] else "")


def _matches(b, want: Kinds) -> bool:
    return b.kinds == tuple(want[:2]) and (len(want) < 3 or want[2] is None or b.reason == want[2])


@register
@dataclass(frozen=True)
class BoundaryKept(Check):
    name: ClassVar[str] = "boundary"
    reads_segments: ClassVar[bool] = True
    needs_segments: ClassVar[bool] = True
    order: ClassVar[int] = 14
    kinds: tuple[Kinds, ...] | None = SAME

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--boundary", metavar="P:C,...", nargs="?", const=True,
                       help="a kernel of scheduler P feeds a kernel of scheduler C through an intermediate "
                            "tensor (e.g. 'reduction:pointwise'); bare: one of the original run's boundaries")

    @classmethod
    def from_args(cls, args):
        v = getattr(args, "boundary", None)
        if v is None or v is False:
            return None
        return cls.parse(None if v is True else v)

    @classmethod
    def parse(cls, text: str | None) -> "BoundaryKept":
        if not text:
            return cls(SAME)
        kinds = []
        for part in str(text).split(","):
            m = re.fullmatch(r"\s*([A-Za-z_]\w*)\s*(?::|->|→)\s*([A-Za-z_]\w*)\s*", part)
            if not m:
                raise ValueError(f"expected boundaries as PRODUCER:CONSUMER scheduler pairs separated by commas "
                                 f"(e.g. 'reduction:pointwise'), got {text!r}")
            kinds.append((m.group(1).lower(), m.group(2).lower()))
        return cls(tuple(sorted(set(kinds))))

    def bind(self, original):
        if self.kinds is not None or original is None:
            return self
        g = original.segment_graph
        kinds = sorted({(b.producer, b.consumer, b.reason) for b in g.boundaries()}, key=str) if g else []
        return dataclasses.replace(self, kinds=tuple(kinds))

    def holds(self, o, evidence=None):
        g: SegmentGraph | None = o.segment_graph
        if g is None:
            why = f"status {o.status}" if not o.ok else f"the {o.backend or 'backend'} backend reports no segment graph"
            return False, f"no segment graph ({why})"
        if not self.kinds:
            return False, "no boundary to keep (the original has none)"
        for b in g.boundaries():
            if any(_matches(b, k) for k in self.kinds):
                return True, f"keeps the boundary {b.words()}"
        got = sorted({_fmt((*b.kinds, b.reason)) for b in g.boundaries()})
        return False, (f"no boundary {' or '.join(_fmt(k) for k in self.kinds)} "
                       f"({'boundaries: ' + ', '.join(got) if got else g.words()})")

    def describe(self):
        if self.kinds is None:
            return "a kernel boundary of the original"
        return "a kernel boundary " + " or ".join(_fmt(k) for k in self.kinds)

    def to_json(self):
        return {"check": self.name, "kinds": [list(k) for k in self.kinds] if self.kinds is not None else None}

    @classmethod
    def from_json(cls, d):
        k = d.get("kinds")
        return cls(tuple(tuple(x) for x in k) if k is not None else None)
