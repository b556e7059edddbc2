"""``--slower X [--baseline B] [--repeats K]``: the backend's execute time is X times the
baseline's, beyond noise.

``repeats`` interleaved runs of each (so drifting machine load hits both alike); the ratio of
medians is reported, but the check demands the pessimistic bound — the fastest backend run over
the slowest baseline run — to exceed ``factor``, so noise cannot make a candidate look slower.
Times are the backends' warm ``execute_seconds`` (``RunOptions.time_execute``: the last fusion
executed again, the first call's compile left out)."""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import ClassVar

from ...argtypes import POSITIVE_INT
from ...backends import names as backend_names
from .base import Check, Missing, Trial, failure_words, register


@dataclass
class Timings:
    times: list[float] = field(default_factory=list)
    baseline: list[float] = field(default_factory=list)
    baseline_failure: str | None = None

    def to_json(self) -> dict:
        return {"backend": self.times, "baseline": self.baseline}


def _exec_seconds(o) -> float:
    return o.execute_seconds if o.execute_seconds is not None else o.seconds


@register
@dataclass(frozen=True)
class Slower(Check):
    name: ClassVar[str] = "slower"
    order: ClassVar[int] = 40
    cost: ClassVar[int] = 3
    factor: float
    baseline: str = "reference"
    repeats: int = 5

    def __post_init__(self):
        if not self.factor > 0:
            raise ValueError(f"--slower needs a positive factor, got {self.factor}")

    @classmethod
    def add_arguments(cls, g):
        g.add_argument("--slower", metavar="X", type=float, help="execute time more than X times the baseline's")
        g.add_argument("--baseline", metavar="BACKEND", default="reference", choices=list(backend_names()),
                       help="baseline for --slower (default: reference)")
        g.add_argument("--repeats", metavar="K", type=POSITIVE_INT, default=5, help="timing runs per backend for --slower")

    @classmethod
    def from_args(cls, args):
        if getattr(args, "slower", None) is None:
            return None
        return cls(float(args.slower), args.baseline, max(1, int(args.repeats)))

    def backends(self):
        return {self.baseline}

    @staticmethod
    def ratios(times, base) -> tuple[float, float]:
        """(median ratio, lower bound)."""
        med = statistics.median(times) / max(statistics.median(base), 1e-12)
        low = min(times) / max(max(base), 1e-12)
        return med, low

    def gather(self, trial: Trial):
        if trial.outcome is None or not trial.outcome.ok:
            return None
        t = Timings()
        for _ in range(self.repeats):
            a = trial.run(time_execute=self.repeats)
            b = trial.run(self.baseline, time_execute=self.repeats)
            if not a.ok:
                return Missing(f"a timing run gave {failure_words(a)}")
            if not b.ok:
                t.baseline_failure = f"the {self.baseline} run gave {failure_words(b)}"
                return t
            t.times.append(_exec_seconds(a))
            t.baseline.append(_exec_seconds(b))
        return t

    def holds(self, o, evidence=None):
        if not o.ok:
            return False, f"{failure_words(o)}: no timing"
        if not isinstance(evidence, Timings) or (not evidence.baseline_failure and not evidence.times):
            return False, "no timings"
        if evidence.baseline_failure:
            return False, evidence.baseline_failure
        med, low = self.ratios(evidence.times, evidence.baseline)
        words = (f"{med:.2f}× the {self.baseline} time (median of {len(evidence.times)}; "
                 f"lower bound {low:.2f}×)")
        if low > self.factor:
            return True, words
        return False, words + f", expected > {self.factor:g}×"

    def describe(self):
        return f"more than {self.factor:g}× slower than {self.baseline} (lower bound over {self.repeats} repeats)"
