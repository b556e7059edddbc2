"""The same failure (the default property of a failing original), and a plain status."""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import Check, failure_words, register


@register
@dataclass(frozen=True)
class Failure(Check):
    """The same failure: status and signature. No flag asks for it: it is what an original that
    fails is reduced under when no property is given (``--error`` is the flag for a pattern)."""
    name: ClassVar[str] = "failure"
    order: ClassVar[int] = 0
    status: str
    signature: str | None

    def holds(self, o, evidence=None):
        if o.status == self.status and o.signature == self.signature:
            return True, f"{o.status} `{o.signature}`"
        return False, f"{failure_words(o)}, expected {self.status} `{self.signature}`"

    def describe(self):
        return f"the same failure ({self.status} `{self.signature}`)"


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
