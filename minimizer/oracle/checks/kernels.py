"""``--kernels EXPR``: the number of *kernel* segments compared with a number.

A segment is a kernel unless its backend says its scheduler launches none (nvFuser's expression
evaluator ``expr_eval`` and ``no_op`` segments run on the host or alias memory:
``Facts.non_kernel``). ``--segments '>=2'`` is met by a view-only ``expr_eval`` segment next to
one kernel; ``--kernels '>=2'`` is not — it asks for what a user means by "splits into 2 kernels".
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import ClassVar

from ...backends import get as get_backend
from .base import Check, register
from .schedulers import fmt_multiset, multiset
from .segments import COMPARISONS, parse_count, plural


def kernel_count(o) -> int | None:
    """Kernel segments of an outcome (None where the backend reports no segments)."""
    if o.schedulers is None:
        return None if o.segments is None else o.segments
    return len(kernel_schedulers(o))


def kernel_schedulers(o) -> tuple[str, ...] | None:
    """The schedulers of an outcome's kernel segments, as a sorted multiset (None: not reported)."""
    if o.schedulers is None:
        return None
    try:
        skip = get_backend(o.backend).facts.non_kernel if o.backend else frozenset()
    except ValueError:
        skip = frozenset()
    return multiset(s for s in o.schedulers if str(s).strip().lower() not in skip)


@register
@dataclass(frozen=True)
class Kernels(Check):
    name: ClassVar[str] = "kernels"
    reads_segments: ClassVar[bool] = True
    needs_segments: ClassVar[bool] = True
    order: ClassVar[int] = 11
    op: str
    n: int | None = None     # None: the original's count (``bind``)
    kinds: tuple[str, ...] | None = None   # also these kernel schedulers (the default of an original
    #                                        whose kernels share only inputs: ``Property.from_outcome``)

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--kernels", metavar="EXPR",
                       help="kernel count: segments that launch a kernel (not nvFuser's expr_eval or no_op), "
                            "e.g. '>=2', '==3', '1'")

    @classmethod
    def from_args(cls, args):
        v = getattr(args, "kernels", None)
        return cls(*parse_count(v, "kernel")) if v is not None else None

    def bind(self, original):
        return self if self.n is not None else dataclasses.replace(self, n=kernel_count(original))

    def holds(self, o, evidence=None):
        k = kernel_count(o)
        if k is None:
            why = f"status {o.status}" if not o.ok else f"the {o.backend or 'backend'} backend reports no segments"
            return False, f"no kernel count ({why}), expected {self.op} {self.n}"
        if self.n is None:
            return False, "no kernel count to compare with"
        ok = COMPARISONS[self.op](k, self.n)
        if not ok:
            return False, plural(k, "kernel") + f", expected {self.op} {self.n}"
        got = kernel_schedulers(o)
        if self.kinds is not None and got != self.kinds:
            return False, f"kernels {fmt_multiset(got or ())}, expected {fmt_multiset(self.kinds)}"
        return True, plural(k, "kernel") + (f" {fmt_multiset(got)}" if self.kinds is not None else "")

    def describe(self):
        kinds = f" {fmt_multiset(self.kinds)}" if self.kinds is not None else ""
        return f"kernels {self.op} {self.n if self.n is not None else 'the original count'}{kinds}"

    @classmethod
    def from_json(cls, d):
        d = {k: v for k, v in d.items() if k != "check"}
        if d.get("kinds") is not None:
            d["kinds"] = tuple(d["kinds"])
        return cls(**d)
