"""The property a stored bucket's programs must show, for reducing and rechecking it.

A bucket records the flags it was found under; a wrong result is held to its kind of difference
(``keys.difference``, read from its key's record), a failure to its recorded status and
signature.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ...oracle.checks import Check
from ..store.record import Bucket
from .keys import difference
from .mechanisms import MECHANISMS


def differs(meta: Bucket) -> str:
    """For a wrong result: what ``--mismatch-in`` holds it to ("dtype", "shape" or "values": an
    input written in place compares its values), from its key or words (``keys.difference``);
    "" for another kind, and for a difference ``--mismatch-in`` cannot name (another number of
    outputs: held to any mismatch)."""
    if meta.kind != "mismatch":
        return ""
    from ...oracle.checks.mismatch import Mismatch
    what = difference(meta)
    what = "values" if what == "aliasing" else what
    return what if what in Mismatch.WHATS else ""


def reduction_flags(meta: Bucket) -> dict:
    """The property flags a bucket is reduced under. A wrong result is held to its kind of
    difference (``--mismatch-in dtype`` ...) as ``differs`` reads it now — one source for the key
    and the property, also for buckets stored before flags said so, or whose stored flag says
    another kind than their words."""
    flags = dict(meta.flags or {})
    if flags.get("mismatch") not in (None, False) and meta.kind == "mismatch":
        flags["mismatch"] = differs(meta) or True
    if isinstance(flags.get("mismatch"), str):   # stored as the kind of difference: ``--mismatch-in``
        flags["mismatch_in"] = flags.pop("mismatch")
    return flags


@dataclass(frozen=True)
class KeepsCause(Check):
    """A wrong result's reduction keeps the cause it started from (C-Reduce's slippage, by
    cause): a candidate still holds the structure of the known mechanism the bucket is keyed by
    (``shows``), and holds none that the original lacked (``lacks``). A reduction that shrinks
    layouts can write an output into an input it made strided, and so trade a wrong ``linear``
    for NVIDIA/Fuser#5356 (b320a6909b04's did): another bug, with another row. Static: judged from
    the candidate program before any run; not a command-line check (a bucket's property only)."""
    name: ClassVar[str] = "keeps-cause"
    order: ClassVar[int] = 0
    shows: str | None = None
    lacks: tuple[str, ...] = ()

    @classmethod
    def of(cls, meta: Bucket, original) -> "KeepsCause":
        shows = meta.key.mechanism if meta.key is not None else None
        return cls(shows, tuple(m.words for m in MECHANISMS if m.words != shows and not m.shown_by(original)))

    def static(self, program, info) -> tuple[bool, str]:
        for m in MECHANISMS:
            if m.words == self.shows and not m.shown_by(program):
                return False, f"it no longer shows the bucket's cause ({m.words})"
            if m.words in self.lacks and m.shown_by(program):
                return False, f"it shows a cause the original does not ({m.words})"
        return True, ""

    def holds(self, o, evidence=None) -> tuple[bool, str]:
        return True, ""

    def describe(self) -> str:
        return f"keeps its cause ({self.shows})" if self.shows else "gains no other known cause"


def bucket_property(meta: Bucket, outcome: dict | None, original=None):
    """The property a bucket's programs must show (for reducing and rechecking it): its flags
    (``reduction_flags``), or for a failure the recorded status and signature — never "whatever
    the replay shows", which for a failure that no longer happens would be a passing run.
    ``original``: the program a reduction starts from; a wrong result's reduction then keeps its
    cause (``KeepsCause``)."""
    from ...oracle.property import Failure, Property
    flags = reduction_flags(meta)
    if flags:
        prop = Property.from_flags(**flags)
        if prop is not None and original is not None and meta.kind == "mismatch":
            prop = Property((KeepsCause.of(meta, original), *prop.checks))
        return prop
    if meta.kind == "failure" and outcome and outcome.get("status") not in (None, "ok"):
        return Property((Failure.of(outcome),))
    return None


__all__ = ["differs", "reduction_flags", "bucket_property", "KeepsCause"]
