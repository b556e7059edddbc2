"""The same failure (the default property of a failing original), and a plain status."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Check, failure_words, register


@register
@dataclass(frozen=True)
class Failure(Check):
    """The same failure: status and root cause (``oracle.rootcause``: the signature without what
    the error prints about the particular program — a candidate with one op fewer names other
    tensors in the same nvFuser assert). No flag asks for it: it is what an original that fails
    is reduced under when no property is given (``--error`` is the flag for a pattern).

    ``signature`` is the original's, for people; ``key`` its root cause. A property stored
    before root causes (no ``key``) compares signatures, as it did."""
    name: ClassVar[str] = "failure"
    order: ClassVar[int] = 0
    status: str
    signature: str | None
    key: str | None = None

    @classmethod
    def of(cls, o) -> "Failure":
        """The same failure as ``o`` (an ``Outcome`` or its stored JSON)."""
        from ..rootcause import rootcause
        get = o.get if isinstance(o, dict) else lambda k, d=None: getattr(o, k, d)
        return cls(get("status"), get("signature"), rootcause(o))

    def holds(self, o, evidence=None):
        if self.key is None:
            same = o.signature == self.signature
        else:
            same = self.key in _causes(o)
        if o.status == self.status and same:
            return True, f"{o.status} `{o.signature}`"
        return False, f"{failure_words(o)}, expected {self.status} `{self.key or self.signature}`"

    def describe(self):
        return f"the same failure ({self.status} `{self.key or self.signature}`)"


def _causes(o) -> tuple:
    """The root causes a run may be recorded under: from its signature and whole message (an
    NVRTC error's family, read from the compiler's log), and from its signature alone — what a
    stored outcome whose message was cut short gives (a bucket filed so must not turn stale when
    its replay, with the whole log, names the family its error belongs to)."""
    from ..rootcause import rootcause
    get = o.get if isinstance(o, dict) else lambda k, d=None: getattr(o, k, d)
    whole = rootcause(o)
    alone = rootcause({"status": get("status"), "signature": get("signature"), "backend": get("backend"),
                       "message": None})
    return (whole, alone)


@register
@dataclass(frozen=True)
class Status(Check):
    """The run ends with this status (``ok`` in the default property of a passing original)."""
    name: ClassVar[str] = "status"
    order: ClassVar[int] = 1
    status: str = "ok"

    def holds(self, o, evidence=None):
        if o.status == self.status:
            return True, o.status
        return False, f"{failure_words(o)}, expected {self.status}"

    def describe(self):
        return f"status {self.status}"
