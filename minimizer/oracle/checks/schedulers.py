"""``--schedulers [LIST]``: the multiset of segment schedulers (order does not matter)."""
from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass
from typing import ClassVar

from .base import SAME, Check, register


def multiset(names) -> tuple[str, ...]:
    return tuple(sorted(str(n).strip().lower() for n in names))


def fmt_multiset(ms) -> str:
    c = Counter(ms)
    return "[" + ", ".join(k if v == 1 else f"{k}×{v}" for k, v in sorted(c.items())) + "]"


@register
@dataclass(frozen=True)
class Schedulers(Check):
    """The scheduler multiset: the original's, or a given list."""
    name: ClassVar[str] = "schedulers"
    reads_segments: ClassVar[bool] = True
    needs_segments: ClassVar[bool] = True
    order: ClassVar[int] = 12
    expected: tuple[str, ...] | None = SAME

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--schedulers", metavar="LIST", nargs="?", const=True,
                       help="scheduler multiset, e.g. 'pointwise,reduction*2' (order does not matter); bare: "
                            "the original run's (in check: the script's own)")

    @classmethod
    def from_args(cls, args):
        v = getattr(args, "schedulers", None)
        if v is None or v is False:
            return None
        return cls.parse(None if v is True else v)

    @classmethod
    def parse(cls, text: str | None) -> "Schedulers":
        """``pointwise,reduction`` or ``reduction*2,pointwise``; None or '' = the original's."""
        if not text:
            return cls(SAME)
        names = []
        for part in str(text).split(","):
            m = re.fullmatch(r"\s*([A-Za-z_][\w-]*)\s*(?:[*x×]\s*(\d+))?\s*", part)
            if not m:
                raise ValueError(f"expected scheduler names separated by commas (e.g. "
                                 f"'pointwise,reduction*2'), got {text!r}")
            names += [m.group(1)] * int(m.group(2) or 1)
        return cls(multiset(names))

    def bind(self, original):
        if self.expected is not None or original.schedulers is None:
            return self
        return dataclasses.replace(self, expected=multiset(original.schedulers))

    def holds(self, o, evidence=None):
        if o.schedulers is None:
            return False, f"no schedulers reported ({'status ' + o.status if not o.ok else o.backend or 'backend'})"
        if self.expected is None:
            return False, "no scheduler multiset to compare with"
        got = multiset(o.schedulers)
        ok = got == self.expected
        return ok, f"schedulers {fmt_multiset(got)}" + ("" if ok else f", expected {fmt_multiset(self.expected)}")

    def describe(self):
        return "schedulers " + (fmt_multiset(self.expected) if self.expected is not None else "as the original")

    def to_json(self):
        return {"check": self.name, "expected": list(self.expected) if self.expected is not None else None}

    @classmethod
    def from_json(cls, d):
        e = d.get("expected")
        return cls(tuple(e) if e is not None else None)
