"""``--segments EXPR``: the number of segments (kernels and non-kernel segments alike) compared
with a number."""
from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import ClassVar

from .base import Check, register

COMPARISONS = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, "==": lambda a, b: a == b,
               "!=": lambda a, b: a != b, ">": lambda a, b: a > b, "<": lambda a, b: a < b}


def parse_count(expr: str, what: str) -> tuple[str, int]:
    """``>=3``, ``<= 2``, ``!=1``, ``3`` (= ``==3``) -> (operator, number)."""
    m = re.fullmatch(r"\s*(>=|<=|==|!=|>|<|=)?\s*(\d+)\s*", str(expr))
    if not m:
        raise ValueError(f"expected a {what} count such as '>=3', '<2', '!=1' or '3', got {expr!r}")
    op = m.group(1) or "=="
    return ("==" if op == "=" else op), int(m.group(2))


def plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


@register
@dataclass(frozen=True)
class Segments(Check):
    """Segment count compared with a number."""
    name: ClassVar[str] = "segments"
    reads_segments: ClassVar[bool] = True
    needs_segments: ClassVar[bool] = True
    order: ClassVar[int] = 10
    op: str
    n: int | None       # None: the original's count (``bind``)

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--segments", metavar="EXPR",
                       help="segment count, kernels and non-kernel segments (expr_eval, no_op) alike: "
                            "'>=3', '<=2', '==1', '!=1', '>2', '<4' or '3'")

    @classmethod
    def from_args(cls, args):
        return cls.parse(args.segments) if getattr(args, "segments", None) is not None else None

    @classmethod
    def parse(cls, expr: str) -> "Segments":
        return cls(*parse_count(expr, "segment"))

    def bind(self, original):
        return self if self.n is not None else dataclasses.replace(self, n=original.segments)

    def holds(self, o, evidence=None):
        if o.segments is None:
            why = f"status {o.status}" if not o.ok else f"the {o.backend or 'backend'} backend reports none"
            return False, f"no segment count ({why}), expected {self.op} {self.n}"
        if self.n is None:
            return False, "no segment count to compare with"
        ok = COMPARISONS[self.op](o.segments, self.n)
        return ok, plural(o.segments, "segment") + ("" if ok else f", expected {self.op} {self.n}")

    def describe(self):
        return f"segments {self.op} {self.n if self.n is not None else 'the original count'}"
