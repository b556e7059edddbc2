"""The root cause of a failed run: what makes two failures one bug.

A signature (``Outcome.signature``) is what one run printed, masked; two runs of one bug print
different tensors, values, dtypes and list lengths (an nvFuser error names the tensors of the
particular fusion). The root cause is the signature with that taken out, by the backend that
knows its own messages (``Backend.rootcause``; ``backends/nvfuser_rootcause.py`` for nvFuser):

* the fuzzer buckets failures by it (``fuzz/keys.py``), so one bug is one bucket;
* "the same failure" a reduction keeps (``checks.Failure``) is the same root cause, so a
  reducer is not held at a size by a tensor list the error prints;
* an input permutation or relayout that fails with the same root cause as the original is no
  change (``outcome.outcome_key``).

A crash or a timeout is its signature (``crash: SIGSEGV``, ``timeout``); a run that did not fail
has none.
"""
from __future__ import annotations

import re
from typing import Any

from .. import backends

#: an nvFuser root cause (``backends/nvfuser_rootcause.rootcause``): kind, FILE:FUNC, exception type, message
_NVFUSER_CAUSE = re.compile(r"^nvfuser [\w-]+: (?:(?P<where>[^\s:]+:\w+): )?(?:\w+: )?(?P<msg>.*)$")


def rootcause(o: Any) -> str | None:
    """The root cause of a failed run (an ``outcome.Outcome``, or its stored JSON), None for one
    that did not fail. Read by field name (``status``, ``signature``, ``backend``, ``message``), so
    this module needs nothing of ``outcome``, which builds on it (``outcome_key``)."""
    if o is None:
        return None
    get = o.get if isinstance(o, dict) else lambda k, d=None: getattr(o, k, d)
    status, signature = get("status"), get("signature")
    if status in (None, "ok"):
        return None
    if status != "error" or not signature:
        return signature
    try:
        backend = backends.get(get("backend") or "")
    except ValueError:   # an outcome of a backend this fmin does not know (or none: tests' fakes)
        return signature
    return backend.rootcause(signature, get("message"))


def site_and_message(cause: str | None) -> tuple[str | None, str | None]:
    """(where the error was raised, ``FILE:FUNC``, or None; its message template) of a root cause
    (``rootcause``'s text): read from an nvFuser root cause (``nvfuser <kind>: <file>:<func>:
    <Exc>: <message>``); another (a crash, a timeout, the reference's) is its message whole."""
    if cause is None:
        return None, None
    g = _NVFUSER_CAUSE.match(cause)
    return (g.group("where"), g.group("msg")) if g else (None, cause)


def particulars(o: "object | dict | None") -> dict:
    """What a failed run's row lists beside its root cause (``Backend.rootcause_particulars``:
    lists of names, e.g. the functions one cause met); {} for none."""
    if o is None:
        return {}
    get = o.get if isinstance(o, dict) else lambda k, d=None: getattr(o, k, d)
    if get("status") != "error" or not get("signature"):
        return {}
    try:
        backend = backends.get(get("backend") or "")
    except ValueError:
        return {}
    return backend.rootcause_particulars(get("signature"), get("message"))


def refreshed(outcome: dict, program=None) -> dict:
    """A stored outcome with the signature today's fmin would give it (``Backend.refresh``):
    ``program`` is the ``model.Program`` that ran, where known (it decides whose an input
    mismatch is)."""
    try:
        backend = backends.get(outcome.get("backend") or "")
    except ValueError:
        return outcome
    return backend.refresh(outcome, program)


__all__ = ["rootcause", "site_and_message", "particulars", "refreshed"]
