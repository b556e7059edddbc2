"""``--error REGEX``: the run fails (error or crash) with REGEX in its signature or message."""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import ClassVar

from .base import Check, register


@register
@dataclass(frozen=True)
class ErrorMatches(Check):
    name: ClassVar[str] = "error"
    order: ClassVar[int] = 20
    pattern: str

    def __post_init__(self):
        try:
            re.compile(self.pattern)
        except re.error as e:
            raise ValueError(f"bad regular expression {self.pattern!r}: {e}") from None

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--error", metavar="REGEX", help="fails (error or crash) with REGEX in its signature or message")

    @classmethod
    def from_args(cls, args):
        return cls(args.error) if getattr(args, "error", None) is not None else None

    def holds(self, o, evidence=None):
        if o.status not in ("error", "crash"):
            return False, f"status {o.status}, expected an error matching /{self.pattern}/"
        rx = re.compile(self.pattern)
        for what, text in (("signature", o.signature), ("message", o.message)):
            if text and rx.search(text):
                return True, f"{o.status}: {what} matches /{self.pattern}/"
        return False, f"{o.status} `{o.signature}` does not match /{self.pattern}/"

    def describe(self):
        return f"an error matching /{self.pattern}/"
