"""What a ``--recheck`` replay makes of its bucket: still a finding (the same bug, or another bug
of the backend to re-key the bucket on), stale, or not rechecked.

A replay that does not show the bucket's property is judged as a campaign judges a program
(``local.replay_judged``). Stale is kept for a program that shows no failure at all: a bucket
whose program now fails another way in the backend (an nvFuser upgrade moved the assert it hits)
is still a bug, re-keyed on what it shows (``Store.rekey_on``); one whose replay fails in fmin's
own code, the script or the machine (a worker crash a fresh worker did not repeat) says nothing
about the backend, and is left as it was with the reason recorded.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..judging.today import replay_key
from ..store.finding import Finding
from ..store.key import BucketKey
from ..store.record import Bucket

#: the start of the reason of a bucket left as it was (``Replayed.reproduces`` None)
NOT_RECHECKED = "not rechecked"


@dataclass
class Replayed:
    """The recheck's answer for one bucket. ``reproduces``: True, it is a finding still (with
    ``key``: another bug's, which the bucket is re-keyed on, ``found`` its finding); False, stale;
    None, not rechecked (``reason`` says why)."""
    reproduces: bool | None
    reason: str
    found: Finding | None = None
    key: BucketKey | None = None


def replayed(m: Bucket, r: dict, script_name: str, script: str) -> Replayed:
    """Bucket ``m``'s answer from its replay ``r`` (``local.recheck_bucket``'s result) of
    ``script`` (the file ``script_name`` of the bucket)."""
    judged = r.get("replay")
    if r.get("replay_error"):
        return Replayed(None, f"{NOT_RECHECKED}: {r['replay_error']}")
    if r["reproduces"] or judged is None:   # it holds, or the reference rejects it: as it says
        return Replayed(r["reproduces"], r["reason"])
    own = [f for f in judged.findings if f.owner != "fmin"]
    if own:
        key = replay_key(m, own[0], script, script_name != "original.py")
        if str(key) == str(m.key):
            return Replayed(True, f"the same bug when judged afresh ({own[0].words}), though {r['reason']}")
        return Replayed(True, f"re-keyed on what the replay shows: {own[0].words} (was {m.key})", own[0], key)
    if judged.findings:
        return Replayed(None, f"{NOT_RECHECKED}: the replay shows fmin's own finding: {judged.findings[0].words}")
    if not judged.outcome.ok:
        return Replayed(None, f"{NOT_RECHECKED}: the replay fails outside the fusion ({judged.skipped})")
    return Replayed(False, r["reason"])


__all__ = ["NOT_RECHECKED", "Replayed", "replayed"]
