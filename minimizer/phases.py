"""Where a command's time goes: seconds and counts per named phase.

A campaign's throughput (programs judged per minute) is bounded by whichever of its serial parts
is slowest — generating in the driver, waiting for workers, a backend's compiles — and the only
way to tell which is to measure each. ``Phases`` is that record: plain sums that travel with a
unit of work's result (across threads, processes, Ray) and are added up in the driver.

Recording is ambient: code deep in the oracle (``Pool.run``) adds to the ``Phases`` that the
current thread has made active with ``recording``, so the measured functions keep their
signatures, and a thread that made none records nothing.
"""
from __future__ import annotations

import contextlib
import threading
import time

_local = threading.local()


class Phases:
    """``name -> [seconds, count]``; ``add`` for a measured span, ``timed`` to measure one."""

    def __init__(self, data: dict | None = None):
        self.data: dict[str, list] = {k: [float(v[0]), int(v[1])] for k, v in (data or {}).items()}

    def add(self, name: str, seconds: float, count: int = 1) -> None:
        s = self.data.setdefault(name, [0.0, 0])
        s[0] += seconds
        s[1] += count

    @contextlib.contextmanager
    def timed(self, name: str):
        t0 = time.perf_counter()
        try:
            yield
        finally:
            self.add(name, time.perf_counter() - t0)

    def merge(self, other: "Phases | dict | None") -> None:
        for k, (sec, n) in (other.data if isinstance(other, Phases) else (other or {})).items():
            self.add(k, sec, n)

    def seconds(self, name: str) -> float:
        return self.data.get(name, [0.0, 0])[0]

    def count(self, name: str) -> int:
        return self.data.get(name, [0.0, 0])[1]

    def to_json(self) -> dict:
        """``{name: {"seconds": s, "count": n}}``, sorted by name."""
        return {k: {"seconds": round(v[0], 3), "count": v[1]} for k, v in sorted(self.data.items())}

    @classmethod
    def from_json(cls, d: dict | None) -> "Phases":
        return cls({k: (v["seconds"], v["count"]) for k, v in (d or {}).items()})

    def __getstate__(self):
        return self.data

    def __setstate__(self, state):
        self.data = state


def current() -> Phases | None:
    """The ``Phases`` this thread records into, if any."""
    return getattr(_local, "phases", None)


def note(name: str, seconds: float, count: int = 1) -> None:
    """Add to this thread's record (nothing when it has none)."""
    p = current()
    if p is not None:
        p.add(name, seconds, count)


@contextlib.contextmanager
def recording(phases: Phases):
    """Make ``phases`` this thread's record for the block (restoring the previous one after)."""
    before = current()
    _local.phases = phases
    try:
        yield phases
    finally:
        _local.phases = before
