"""``Outcome``: what one run of one script showed. The same record for every backend, so that
properties, reports and the fuzzer compare like with like."""
from __future__ import annotations

from collections import Counter
from dataclasses import asdict, dataclass, field
from typing import Any, Callable

from ..segments import SegmentGraph
from .rootcause import rootcause

STATUSES = ("ok", "error", "crash", "timeout")


@dataclass
class Outcome:
    status: str                       # ok | error | crash | timeout
    backend: str = ""
    signature: str | None = None      # stable key of the failure (None when ok)
    message: str | None = None        # the failure's text (first lines)
    error_kind: str | None = None     # user-input | definition | compiler | runtime | environment | ...
    segments: int | None = None       # kernels/segments, where the backend has them
    schedulers: list[str] | None = None
    outputs: list[dict] = field(default_factory=list)   # [{shape, dtype, device}]
    seconds: float = 0.0
    environment: dict[str, Any] = field(default_factory=dict)
    log: str = ""                     # tail of what the script printed (stdout+stderr)
    values_path: str | None = None    # torch.save'd {"inputs": [...], "outputs": [...]} when asked for
    where: str | None = None          # execute | definition | script: where the error was raised
    script_line: int | None = None    # the script's line the error comes from, where known
    execute_seconds: float | None = None
    values: tuple | None = field(default=None, repr=False)  # (inputs, outputs) once loaded
    graph: dict | None = None         # the segment graph (``segments.SegmentGraph`` as JSON), where known
    storages: dict | None = field(default=None, repr=False)  # input index -> its whole storage, once loaded
    max_rss: int | None = None        # the worker's peak resident memory so far, bytes (a fresh worker: this run's)
    #: the value rules of ``program.validity`` the run broke (the reference watches them), as
    #: ``Violation.to_json``: such a program has no single right result
    undefined: list[dict] | None = None
    #: what the compiler decided on this run (``backends.decisions``: schedulers, segment count,
    #: rejected merges, error class), for the fuzzer's coverage and feedback
    decisions: list[str] | None = None

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    @property
    def segment_graph(self) -> SegmentGraph | None:
        return SegmentGraph.from_json(self.graph)

    def to_json(self) -> dict:
        d = asdict(self)
        d.pop("log")
        d.pop("values")
        return d

    @classmethod
    def from_json(cls, d: dict) -> "Outcome":
        known = {k: d[k] for k in cls.__dataclass_fields__ if k in d}
        return cls(**known)

    def load_values(self):
        """(inputs, outputs) saved by the worker, or None."""
        if not self.values_path:
            return None
        import torch
        # mapped, not read: the values of a script with gigabyte inputs must not be copied into
        # fmin's memory to compare a few of them
        v = torch.load(self.values_path, weights_only=False, mmap=True)
        self.values = (v["inputs"], v["outputs"])
        self.storages = v.get("storages") or {}
        return self.values


def outcome_key(o: Outcome | None) -> tuple:
    """What "the outcome changed" compares: status and root cause (``rootcause``: a relayout
    that fails with the original's bug naming other tensors is no change), segment count,
    scheduler multiset."""
    if o is None:
        return ("not run",)
    scheds = tuple(sorted(str(s).strip().lower() for s in o.schedulers)) if o.schedulers is not None else None
    return (o.status, rootcause(o), o.segments, scheds)


def confirmed(run: Callable[[], Outcome], original: Outcome | None) -> Outcome:
    """A variant's outcome (``run()``); a crash or hang that differs from ``original``'s is run
    once more and believed only if it repeats: the machine can kill or stall one run (out of
    memory, load), and that must not pass for order or layout dependence."""
    o = run()
    if o.status in ("crash", "timeout") and outcome_key(o) != outcome_key(original):
        o = run()
    return o


def outcome_words(o: Outcome | None) -> str:
    """``3 segments [reduction×2, transpose]`` or ``error `sig```: an outcome in a few words."""
    if o is None:
        return "no outcome"
    if not o.ok:
        return f"{o.status} `{o.signature}`"
    g = o.segment_graph
    if g is not None and g.segments:
        return g.words()
    if o.segments is None:
        return "ok"
    words = f"{o.segments} segment" + ("" if o.segments == 1 else "s")
    if o.schedulers:
        c = Counter(str(s) for s in o.schedulers)
        words += " [" + ", ".join(k if v == 1 else f"{k}×{v}" for k, v in sorted(c.items())) + "]"
    return words


def boundary_change(a: Outcome | None, b: Outcome | None) -> str | None:
    """Which kernel boundaries (producer → consumer scheduler kinds) ``b`` has that ``a`` has not,
    and the other way round, in words; None when both have the same kinds (or no graphs)."""
    ga = a.segment_graph if a is not None else None
    gb = b.segment_graph if b is not None else None
    if ga is None and gb is None:
        return None
    ka = {x.kinds: x for x in ga.boundaries()} if ga is not None else {}
    kb = {x.kinds: x for x in gb.boundaries()} if gb is not None else {}
    gone = [ka[k].words() for k in ka if k not in kb]
    new = [kb[k].words() for k in kb if k not in ka]
    parts = []
    if gone:
        parts.append("the boundary " + ", ".join(gone) + (" disappears" if len(gone) == 1 else " disappear"))
    if new:
        parts.append("the boundary " + ", ".join(new) + (" appears" if len(new) == 1 else " appear"))
    return "; ".join(parts) or None
