"""``Property``: what a candidate must still show to be kept — an AND of checks (``checks/``).

Without flags the property is derived from the original run (``Property.from_outcome``): the same
failure (status and root cause, ``rootcause``) if it failed, else the same segment count and
scheduler multiset. With flags, each registered check contributes what its flags ask for (``Property.from_args``).

``evaluate`` judges one candidate: its own run first (with saved values if a check needs them),
then each check's extra runs, cheapest check first, stopping at the first that fails unless asked
for all. A failing property names the first check that failed and why, so a reducer's log says
what a rejected candidate lost.
"""
from __future__ import annotations

import argparse
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..backends import RunOptions
from .checks import (Check, ErrorMatches, Failure, LayoutDependent, Mismatch, Missing, OrderDependent, Schedulers,
                     Segments, ShellTest, Slower, Status, Trial, by_name, checks)
from .checks.boundary import BoundaryKept
from .checks.connected import Connected
from .checks.kernels import Kernels, kernel_count, kernel_schedulers
from .checks.schedulers import multiset
from .outcome import Outcome
from .pool import Pools, Request


@dataclass(frozen=True)
class Property:
    checks: tuple[Check, ...]

    @classmethod
    def from_outcome(cls, o: Outcome, connected: bool = False) -> "Property":
        """The default, from the original run: the same failure if it failed. If it ran, what a
        user asking "why does this split?" means — one of its kernel boundaries kept (a kernel
        feeding another through an intermediate tensor, the same scheduler kinds at both ends),
        in one connected fusion when the original is connected (``connected``). An original
        whose kernels are not joined by intermediates keeps its kernel count and their schedulers
        (two reductions over different axes stay two reductions, not any two kernels — a
        ``segment_set`` copy and a sum met the count alone on Inductor); one whose backend
        reports segments but no graph keeps the segment count and scheduler multiset. Kernel
        counts of 0 or 1 give ``Status("ok")`` alone: nothing to reduce (see ``interesting``)."""
        if not o.ok:
            return cls((Failure.of(o),))
        found: list[Check] = [Status("ok")]
        if connected:
            found.append(Connected())
        g = o.segment_graph
        k = kernel_count(o)
        if g is not None and g.boundaries():
            found.append(BoundaryKept(None).bind(o))
        elif g is not None and k is not None and k >= 2:
            found.append(Kernels("==", k, kinds=kernel_schedulers(o)))
        elif g is None and o.segments is not None and (k or 0) >= 2:
            found.append(Segments("==", o.segments))
            if o.schedulers is not None:
                found.append(Schedulers(multiset(o.schedulers)))
        return cls(tuple(found))

    @property
    def interesting(self) -> bool:
        """Does it ask for more than "runs fine"? (A default of ``Status("ok")`` with nothing
        else — or with connectivity alone — would reduce any script to nothing.)"""
        return any(not isinstance(c, (Status, Connected)) for c in self.checks)

    @property
    def reads_segments(self) -> bool:
        return any(c.reads_segments for c in self.checks)

    @property
    def guards_degenerate(self) -> bool:
        """Keep out candidates with degenerate tensors the original did not have (see
        ``Check.guards_degenerate``)."""
        return any(c.reads_segments or c.guards_degenerate for c in self.checks)

    def unsupported_on(self, backend) -> str | None:
        """Why this property cannot be judged on ``backend`` (a ``Backend``): a check that reads
        segments where the backend reports none. None: it can. Asked before any run."""
        c = next((c for c in self.checks if c.needs_segments), None)
        if c is None or backend.facts.reports_segments:
            return None
        from ..backends import get, names
        which = " or ".join(f"--backend {n}" for n in names() if get(n).facts.reports_segments)
        return f"--{c.name}: the {backend.facts.name} backend reports no segments (they come from {which})"

    def static(self, program, info) -> str | None:
        """The first failing static judgement of a candidate program (None: nothing against it)."""
        for key, c in self.keyed():
            r = c.static(program, info)
            if r is not None and not r[0]:
                return f"{key}: {r[1]}"
        return None

    @staticmethod
    def add_arguments(parser: argparse.ArgumentParser) -> None:
        """Every registered check's flags, in one argument group."""
        g = parser.add_argument_group("property", "what a script must show; with any of these, the exit code says "
                                                  "whether it holds for every script")
        for c in checks():
            c.add_arguments(g)

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "Property | None":
        """The property the parsed flags ask for; None when no flag is given. Raises ValueError."""
        found = [c for c in (kind.from_args(args) for kind in checks()) if c is not None]
        return cls(tuple(found)) if found else None

    @classmethod
    def from_flags(cls, **flags) -> "Property | None":
        """``from_args`` with the flags as keywords (``segments=">=2"``, ``mismatch_in="values"``,
        ``order_dependent=True``), the others at their command-line defaults. Raises ValueError."""
        parser = argparse.ArgumentParser(add_help=False)
        cls.add_arguments(parser)
        args = parser.parse_args([])
        unknown = set(flags) - set(vars(args))
        if unknown:
            raise ValueError(f"unknown property flags: {', '.join(sorted(unknown))}")
        for k, v in flags.items():
            setattr(args, k, v)
        return cls.from_args(args)

    def bind(self, original: Outcome) -> "Property":
        """Resolve "as the original" (bare ``--schedulers``) against the original run."""
        return Property(tuple(c.bind(original) for c in self.checks))

    def __and__(self, other: "Property") -> "Property":
        return Property(self.checks + other.checks)

    # ---- what runs it needs ----
    def find(self, kind: type) -> list:
        return [c for c in self.checks if isinstance(c, kind)]

    @property
    def needs_outcome(self) -> bool:
        return any(c.needs_outcome for c in self.checks)

    @property
    def needs_values(self) -> bool:
        return any(c.needs_values for c in self.checks)

    @property
    def runs_reference(self) -> bool:
        """Some check runs the candidate on the reference backend too (memory planning)."""
        return any(c.runs_reference for c in self.checks)

    @property
    def runs_fp64_reference(self) -> bool:
        """Some check runs the fp64 reference (memory planning)."""
        return any(c.runs_fp64_reference for c in self.checks)

    def extra_backends(self) -> set[str]:
        return set().union(*(c.backends() for c in self.checks)) if self.checks else set()

    # ---- judging ----
    def keyed(self) -> list[tuple[str, Check]]:
        """(key, check) with unique keys: the check's name, ``name#2`` for a second one."""
        seen: Counter = Counter()
        out = []
        for c in self.checks:
            seen[c.name] += 1
            out.append((c.name if seen[c.name] == 1 else f"{c.name}#{seen[c.name]}", c))
        return out

    def results(self, o: Outcome | None, evidence: dict[str, Any] | None = None) -> dict[str, tuple[bool, str]]:
        """Every check's (holds, reason), by key; ``evidence`` maps a key to its check's evidence."""
        evidence = evidence or {}
        return {k: (False, "not run") if o is None and c.needs_outcome else c.judge(o, evidence.get(k))
                for k, c in self.keyed()}

    def holds(self, o: Outcome | None, evidence: dict[str, Any] | None = None) -> tuple[bool, str]:
        """(True, what holds) or (False, why the first failing check fails)."""
        res = self.results(o, evidence)
        for name, (ok, why) in res.items():
            if not ok:
                return False, f"{name}: {why}"
        return True, "; ".join(why for _, why in res.values())

    def describe(self) -> str:
        return " and ".join(c.describe() for c in self.checks) or "anything"

    def to_json(self) -> list[dict]:
        return [c.to_json() for c in self.checks]

    @classmethod
    def from_json(cls, items: list[dict]) -> "Property":
        out = []
        for d in items:
            d = dict(d)
            out.append(by_name(d.pop("check")).from_json(d))
        return cls(tuple(out))


@dataclass
class Evaluation:
    """What evaluating a property on one run found: whether it holds, each check's answer and the
    evidence gathered. Not the Session's ``Verdict`` (the funnel's answer for a candidate), which
    may carry one of these as its ``detail``."""
    holds: bool
    reason: str
    checks: dict[str, tuple[bool, str]]
    outcome: Outcome | None
    evidence: dict[str, Any] = field(default_factory=dict)
    prop: Property | None = field(default=None, repr=False)

    def get(self, kind: type) -> Any:
        """The evidence gathered for the first check of ``kind`` (None if none)."""
        if self.prop is None:
            return None
        for key, c in self.prop.keyed():
            if isinstance(c, kind):
                ev = self.evidence.get(key)
                return None if isinstance(ev, Missing) else ev
        return None

    def to_json(self) -> dict:
        d = {"holds": self.holds,
             "checks": {k: {"holds": ok, "reason": why} for k, (ok, why) in self.checks.items()}}
        if self.prop is not None:
            for key, c in self.prop.keyed():
                ev = self.evidence.get(key)
                if ev is not None and not isinstance(ev, Missing):
                    j = c.evidence_json(ev)
                    if j:
                        d[key] = j
        return d


def evaluate(prop: Property, text: str, path: str, pools: Pools, *, seed: int = 0, outcome: Outcome | None = None,
             all_checks: bool = False, program=None, options: RunOptions | None = None, info=None) -> Evaluation:
    """Judge one candidate: run it on ``pools.primary`` (unless ``outcome`` is given), then only
    the extra runs its checks need, cheapest first. Unless ``all_checks``, evaluation stops at the
    first failing check (what a reducer wants); ``fmin check`` asks for all. ``options``: for the
    candidate's own runs (the fuzzer's Inductor-eager triage). Values saved for this judgement are
    deleted afterwards."""
    options = options or RunOptions()
    own_values = False
    if outcome is None and prop.needs_outcome:
        opts = RunOptions(seed=seed, want_values=prop.needs_values).over(options)
        outcome = pools.primary.run(Request(text, path, opts))
        own_values = True
    trial = Trial(text, path, seed, outcome, pools, options, program, info)
    keyed = sorted(prop.keyed(), key=lambda kc: kc[1].cost)
    results: dict[str, tuple[bool, str]] = {}
    evidence: dict[str, Any] = {}
    try:
        for key, c in keyed:
            if outcome is None and c.needs_outcome:
                results[key] = (False, "not run")
            else:
                ev = c.gather(trial)
                if ev is not None:
                    evidence[key] = ev
                results[key] = c.judge(outcome, ev)
            if not results[key][0] and not all_checks:
                break
    finally:
        if own_values and outcome is not None:
            from .checks.mismatch import drop_values
            drop_values(outcome)
    results = {k: results[k] for k, _ in prop.keyed() if k in results}   # in the property's order
    failing = next(((k, why) for k, (ok, why) in results.items() if not ok), None)
    if failing:
        return Evaluation(False, f"{failing[0]}: {failing[1]}", results, outcome, evidence, prop)
    return Evaluation(True, "; ".join(why for _, why in results.values()), results, outcome, evidence, prop)


def verdict_for_script(prop: Property, req: Request, outcome: Outcome, pools: Pools, *, seed: int = 0) -> Evaluation:
    """``fmin check``'s verdict on one script that has run (``outcome``): every check of the
    property bound to that run (bare ``--schedulers``: the script's own multiset), all of them
    judged; the run's saved values are deleted afterwards."""
    from .checks.mismatch import drop_values
    try:
        return evaluate(prop.bind(outcome), req.script, req.path, pools, seed=seed, outcome=outcome, all_checks=True)
    finally:
        drop_values(outcome)   # evaluate leaves a given outcome's values alone


__all__ = ["Property", "Evaluation", "evaluate", "verdict_for_script", "Check", "Failure", "Status", "Segments", "Schedulers",
           "ErrorMatches", "Mismatch", "Slower", "ShellTest", "OrderDependent", "LayoutDependent", "Missing"]
