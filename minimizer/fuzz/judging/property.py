"""The property a stored bucket's programs must show, for reducing and rechecking it.

A bucket records the flags it was found under; a wrong result is held to its kind of difference
(``keys.difference``, read from its key's record), a failure to its recorded status and
signature.
"""
from __future__ import annotations

from ..store.record import Bucket
from .keys import difference


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


def bucket_property(meta: Bucket, outcome: dict | None):
    """The property a bucket's programs must show (for reducing and rechecking it): its flags
    (``reduction_flags``), or for a failure the recorded status and signature — never "whatever
    the replay shows", which for a failure that no longer happens would be a passing run."""
    from ...oracle.property import Failure, Property
    flags = reduction_flags(meta)
    if flags:
        return Property.from_flags(**flags)
    if meta.kind == "failure" and outcome and outcome.get("status") not in (None, "ok"):
        return Property((Failure.of(outcome),))
    return None


__all__ = ["differs", "reduction_flags", "bucket_property"]
