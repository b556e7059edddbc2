"""``Property``: what a candidate must still show to be kept.

A property is an AND of checks. Each check reads the candidate's ``Outcome`` and, where it needs
more than one run, ``Evidence`` gathered by ``evaluate`` (a reference run with saved values for
``--mismatch``, interleaved timing runs for ``--slower``, the user's shell command for ``--test``).
Checks are pure functions of (outcome, evidence), so the reducer, ``fmin check`` and the tests
all judge the same way, and tests can feed fake evidence.

Without flags the property is derived from the original run (``Property.from_outcome``): the same
failure (status and signature) if it failed, else the same segment count and scheduler multiset.
A failing property names the first check that failed and why, so a reducer's log says what a
rejected candidate lost.
"""
from __future__ import annotations

import dataclasses
import os
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

from .compare import Comparison, compare
from .outcome import Outcome
from .pool import Request

SAME = None          # a check's expected value to be taken from the original outcome (``bind``)


@dataclass
class ShellResult:
    returncode: int | None      # None when it timed out
    output: str                 # tail of stdout+stderr
    seconds: float


@dataclass
class Evidence:
    """What runs beyond the candidate's own produced (filled in by ``evaluate``, or by a test)."""
    reference: Outcome | None = None
    comparison: Comparison | None = None
    comparison_fp64: Comparison | None = None    # against the fp64 reference, when run
    times: list[float] | None = None            # backend execute seconds, one per repeat
    baseline_times: list[float] | None = None   # baseline execute seconds, interleaved with ``times``
    baseline_failure: str | None = None
    shell: ShellResult | None = None
    order: Any = None                           # ``order.OrderResult`` for --order-dependent
    layout: Any = None                          # ``layout.LayoutResult`` for --layout-dependent
    notes: dict[str, str] = field(default_factory=dict)   # check name -> why it could not be judged


class Check:
    """One condition. ``name`` is its key in reports (the CLI flag without dashes)."""
    name: ClassVar[str] = ""
    needs_outcome: ClassVar[bool] = True

    def holds(self, o: Outcome | None, ev: Evidence) -> tuple[bool, str]:
        raise NotImplementedError

    def describe(self) -> str:
        raise NotImplementedError

    def bind(self, original: Outcome) -> "Check":
        return self

    def to_json(self) -> dict:
        return {"check": self.name, **dataclasses.asdict(self)}


def _failure_words(o: Outcome) -> str:
    return o.status if o.ok else f"{o.status} `{o.signature}`"


@dataclass(frozen=True)
class Failure(Check):
    """The same failure: status and signature (the default for a failing original)."""
    name: ClassVar[str] = "failure"
    status: str
    signature: str | None

    def holds(self, o, ev):
        if o.status == self.status and o.signature == self.signature:
            return True, f"{o.status} `{o.signature}`"
        return False, f"{_failure_words(o)}, expected {self.status} `{self.signature}`"

    def describe(self):
        return f"the same failure ({self.status} `{self.signature}`)"


@dataclass(frozen=True)
class Status(Check):
    name: ClassVar[str] = "status"
    status: str = "ok"

    def holds(self, o, ev):
        if o.status == self.status:
            return True, o.status
        return False, f"{_failure_words(o)}, expected {self.status}"

    def describe(self):
        return f"status {self.status}"


_OPS = {">=": lambda a, b: a >= b, "<=": lambda a, b: a <= b, "==": lambda a, b: a == b,
        "!=": lambda a, b: a != b, ">": lambda a, b: a > b, "<": lambda a, b: a < b}


@dataclass(frozen=True)
class Segments(Check):
    """Segment (kernel) count compared with a number: ``>=3``, ``<= 2``, ``!=1``, ``3`` (= ``==3``)."""
    name: ClassVar[str] = "segments"
    op: str
    n: int | None       # None: the original's count (``bind``)

    @classmethod
    def parse(cls, expr: str) -> "Segments":
        m = re.fullmatch(r"\s*(>=|<=|==|!=|>|<|=)?\s*(\d+)\s*", str(expr))
        if not m:
            raise ValueError(f"expected a segment count such as '>=3', '<2', '!=1' or '3', got {expr!r}")
        op = m.group(1) or "=="
        return cls("==" if op == "=" else op, int(m.group(2)))

    def bind(self, original):
        return self if self.n is not None else dataclasses.replace(self, n=original.segments)

    def holds(self, o, ev):
        if o.segments is None:
            why = f"status {o.status}" if not o.ok else f"the {o.backend or 'backend'} backend reports none"
            return False, f"no segment count ({why}), expected {self.op} {self.n}"
        if self.n is None:
            return False, "no segment count to compare with"
        ok = _OPS[self.op](o.segments, self.n)
        words = f"{o.segments} segment" + ("" if o.segments == 1 else "s")
        return ok, words + ("" if ok else f", expected {self.op} {self.n}")

    def describe(self):
        return f"segments {self.op} {self.n if self.n is not None else 'the original count'}"


def _multiset(names) -> tuple[str, ...]:
    return tuple(sorted(str(n).strip().lower() for n in names))


def _fmt_multiset(ms) -> str:
    c = Counter(ms)
    return "[" + ", ".join(k if v == 1 else f"{k}×{v}" for k, v in sorted(c.items())) + "]"


@dataclass(frozen=True)
class Schedulers(Check):
    """The scheduler multiset (order does not matter): the original's, or a given list."""
    name: ClassVar[str] = "schedulers"
    expected: tuple[str, ...] | None = SAME

    @classmethod
    def parse(cls, text: str | None) -> "Schedulers":
        """``pointwise,reduction`` or ``reduction*2,pointwise``; None or '' = the original's."""
        if not text:
            return cls(SAME)
        names = []
        for part in str(text).split(","):
            m = re.fullmatch(r"\s*([A-Za-z_][\w-]*)\s*(?:[*x×]\s*(\d+))?\s*", part)
            if not m:
                raise ValueError(f"expected scheduler names separated by commas (e.g. "
                                 f"'pointwise,reduction*2'), got {text!r}")
            names += [m.group(1)] * int(m.group(2) or 1)
        return cls(_multiset(names))

    def bind(self, original):
        if self.expected is not None or original.schedulers is None:
            return self
        return dataclasses.replace(self, expected=_multiset(original.schedulers))

    def holds(self, o, ev):
        if o.schedulers is None:
            return False, f"no schedulers reported ({'status ' + o.status if not o.ok else o.backend or 'backend'})"
        if self.expected is None:
            return False, "no scheduler multiset to compare with"
        got = _multiset(o.schedulers)
        ok = got == self.expected
        return ok, f"schedulers {_fmt_multiset(got)}" + ("" if ok else f", expected {_fmt_multiset(self.expected)}")

    def describe(self):
        return "schedulers " + (_fmt_multiset(self.expected) if self.expected is not None else "as the original")

    def to_json(self):
        return {"check": self.name, "expected": list(self.expected) if self.expected is not None else None}


@dataclass(frozen=True)
class ErrorMatches(Check):
    """Status error or crash, and the regex found in the signature or the message."""
    name: ClassVar[str] = "error"
    pattern: str

    def __post_init__(self):
        try:
            re.compile(self.pattern)
        except re.error as e:
            raise ValueError(f"bad regular expression {self.pattern!r}: {e}") from None

    def holds(self, o, ev):
        if o.status not in ("error", "crash"):
            return False, f"status {o.status}, expected an error matching /{self.pattern}/"
        rx = re.compile(self.pattern)
        for what, text in (("signature", o.signature), ("message", o.message)):
            if text and rx.search(text):
                return True, f"{o.status}: {what} matches /{self.pattern}/"
        return False, f"{o.status} `{o.signature}` does not match /{self.pattern}/"

    def describe(self):
        return f"an error matching /{self.pattern}/"


@dataclass(frozen=True)
class Mismatch(Check):
    """Outputs differ from the ``reference`` backend's beyond tolerance (see ``compare``), and, for
    floating outputs, also from the fp64 reference's (so rounding differences between eager torch
    and a fusing compiler are not mismatches).

    Needs values of both runs, same seed and device. A program with random ops is never judged
    a mismatch: its values differ between backends by design.

    ``what`` ("dtype", "shape" or "values") asks for one kind of difference: a reduction of a
    wrong *value* must not slip to a program whose only fault is an output *dtype* (a different
    bug, C-Reduce's "slippage"); None takes any."""
    name: ClassVar[str] = "mismatch"
    reference: str = "reference"
    scale: float = 1.0
    what: str | None = None

    WHATS: ClassVar[tuple[str, ...]] = ("dtype", "shape", "values")

    def __post_init__(self):
        if self.what is not None and self.what not in self.WHATS:
            raise ValueError(f"--mismatch-in takes one of {', '.join(self.WHATS)}, got {self.what!r}")

    def holds(self, o, ev):
        if not o.ok:
            return False, f"{_failure_words(o)}: no outputs to compare"
        if "mismatch" in ev.notes:
            return False, ev.notes["mismatch"]
        r = ev.reference
        if r is None or ev.comparison is None:
            if r is not None and not r.ok:
                return False, f"the {self.reference} run failed: {_failure_words(r)}"
            return False, "no reference values to compare with"
        if ev.comparison.ok:
            return False, f"outputs match {self.reference} within tolerance"
        if ev.comparison_fp64 is not None and ev.comparison_fp64.ok:
            return False, (f"outputs differ from {self.reference} ({ev.comparison.first_mismatch}) but match "
                           f"its fp64 computation within tolerance: rounding, not a different result")
        if self.what is not None:
            bad = [d for d in ev.comparison.outputs if not d.ok]
            fp64 = ev.comparison_fp64.outputs if ev.comparison_fp64 is not None else None
            hit = [d for i, d in enumerate(ev.comparison.outputs) if not d.ok and d.what == self.what
                   and (self.what != "values" or fp64 is None or i >= len(fp64) or not fp64[i].ok)]
            if not hit:
                kinds = sorted({d.what for d in bad})
                if self.what in kinds:   # only where the fp64 reference agrees with the backend
                    return False, (f"the values that differ from {self.reference} match its fp64 computation "
                                   f"within tolerance: rounding, not a different result")
                return False, f"outputs differ in {', '.join(kinds) or 'nothing'}, not in {self.what}"
            return True, hit[0].reason or ev.comparison.first_mismatch or "outputs differ"
        return True, ev.comparison.first_mismatch or "outputs differ"

    def describe(self):
        s = f" (tolerance ×{self.scale:g})" if self.scale != 1 else ""
        w = f" in {self.what}" if self.what else ""
        return f"outputs differ from {self.reference}{w} beyond tolerance{s}"


@dataclass(frozen=True)
class Slower(Check):
    """The backend's execute time is ``factor`` times the baseline's, beyond noise.

    ``repeats`` interleaved runs of each (so drifting machine load hits both alike); the ratio of
    medians is reported, but the check demands the pessimistic bound — the fastest backend run
    over the slowest baseline run — to exceed ``factor``, so noise cannot make a candidate look
    slower. Times are the backends' ``execute_seconds`` (the last ``fd.execute``), which include
    a compile where the backend compiles on that call; ``Request.options['time_execute']`` asks
    a backend that supports it for warm timings."""
    name: ClassVar[str] = "slower"
    factor: float
    baseline: str = "reference"
    repeats: int = 5

    def __post_init__(self):
        if not self.factor > 0:
            raise ValueError(f"--slower needs a positive factor, got {self.factor}")

    @staticmethod
    def ratios(times, base) -> tuple[float, float]:
        """(median ratio, lower bound)."""
        med = statistics.median(times) / max(statistics.median(base), 1e-12)
        low = min(times) / max(max(base), 1e-12)
        return med, low

    def holds(self, o, ev):
        if not o.ok:
            return False, f"{_failure_words(o)}: no timing"
        if ev.baseline_failure:
            return False, ev.baseline_failure
        if not ev.times or not ev.baseline_times:
            return False, ev.notes.get("slower", "no timings")
        med, low = self.ratios(ev.times, ev.baseline_times)
        words = (f"{med:.2f}× the {self.baseline} time (median of {len(ev.times)}; "
                 f"lower bound {low:.2f}×)")
        if low > self.factor:
            return True, words
        return False, words + f", expected > {self.factor:g}×"

    def describe(self):
        return f"more than {self.factor:g}× slower than {self.baseline} (lower bound over {self.repeats} repeats)"


@dataclass(frozen=True)
class ShellTest(Check):
    """The user's command exits 0. C-Reduce-compatible: it runs in a fresh directory holding a
    copy of the candidate under the original's basename, with that copy's path as ``$1`` (also
    ``$FMIN_SCRIPT``). ``$FMIN_CWD`` is where fmin was started; a relative command path such as
    ``./interesting.sh`` is resolved from there."""
    name: ClassVar[str] = "test"
    needs_outcome: ClassVar[bool] = False
    command: str
    timeout: float = 300.0

    def holds(self, o, ev):
        r = ev.shell
        if r is None:
            return False, ev.notes.get("test", "the command was not run")
        if r.returncode is None:
            return False, f"`{self.command}` timed out after {self.timeout:g} s"
        if r.returncode == 0:
            return True, f"`{self.command}` exited 0"
        last = next((ln for ln in reversed(r.output.splitlines()) if ln.strip()), "")
        return False, f"`{self.command}` exited {r.returncode}" + (f": {last.strip()[:200]}" if last else "")

    def describe(self):
        return f"`{self.command}` exits 0"


@dataclass(frozen=True)
class OrderDependent(Check):
    """Permuting the fusion inputs (declarations and ``inputs`` list together) changes the outcome:
    status/signature, segment count or scheduler multiset (see ``order.search``)."""
    name: ClassVar[str] = "order-dependent"
    max_swaps: int = 28
    n_random: int = 4
    seed: int = 0

    def holds(self, o, ev):
        r = ev.order
        if r is None:
            return False, ev.notes.get("order-dependent", "no permuted runs")
        return r.found, r.words()

    def describe(self):
        return "the outcome depends on the input order"


@dataclass(frozen=True)
class LayoutDependent(Check):
    """Giving the plain inputs another memory layout (same logical values, see ``layout.relayout``)
    changes the outcome: status/signature, segment count or scheduler multiset."""
    name: ClassVar[str] = "layout-dependent"

    def holds(self, o, ev):
        r = ev.layout
        if r is None:
            return False, ev.notes.get("layout-dependent", "no relayouted run")
        return r.found, r.words()

    def describe(self):
        return "the outcome depends on the inputs' memory layout"


CHECKS = {c.name: c for c in (Failure, Status, Segments, Schedulers, ErrorMatches, Mismatch, Slower, ShellTest,
                              OrderDependent, LayoutDependent)}


@dataclass(frozen=True)
class Property:
    checks: tuple[Check, ...]

    @classmethod
    def from_outcome(cls, o: Outcome) -> "Property":
        """The default: the same failure if ``o`` failed, else the same segment count and the same
        scheduler multiset (each only where the backend reports it)."""
        if not o.ok:
            return cls((Failure(o.status, o.signature),))
        checks: list[Check] = [Status("ok")]
        if o.segments is not None:
            checks.append(Segments("==", o.segments))
        if o.schedulers is not None:
            checks.append(Schedulers(_multiset(o.schedulers)))
        return cls(tuple(checks))

    @classmethod
    def from_options(cls, *, segments: str | None = None, schedulers: str | bool | None = None,
                     error: str | None = None, mismatch: bool | str = False, mismatch_scale: float = 1.0,
                     slower: float | None = None, baseline: str = "reference", repeats: int = 5,
                     test: str | None = None, test_timeout: float = 300.0,
                     order_dependent: bool = False, layout_dependent: bool = False) -> "Property | None":
        """The property the command-line flags ask for; None when no flag is given.
        ``schedulers=True`` (the bare flag) means the original's multiset. Raises ValueError."""
        checks: list[Check] = []
        if segments is not None:
            checks.append(Segments.parse(segments))
        if schedulers is not None and schedulers is not False:
            checks.append(Schedulers.parse(None if schedulers is True else schedulers))
        if error is not None:
            checks.append(ErrorMatches(error))
        if mismatch:
            checks.append(Mismatch("reference", mismatch_scale, None if mismatch is True else mismatch))
        if slower is not None:
            checks.append(Slower(float(slower), baseline, max(1, int(repeats))))
        if test is not None:
            checks.append(ShellTest(test, test_timeout))
        if order_dependent:
            checks.append(OrderDependent())
        if layout_dependent:
            checks.append(LayoutDependent())
        return cls(tuple(checks)) if checks else None

    def bind(self, original: Outcome) -> "Property":
        """Resolve "as the original" (bare ``--schedulers``) against the original run."""
        return Property(tuple(c.bind(original) for c in self.checks))

    def __and__(self, other: "Property") -> "Property":
        return Property(self.checks + other.checks)

    # ---- what extra runs it needs ----
    def find(self, kind: type) -> list:
        return [c for c in self.checks if isinstance(c, kind)]

    @property
    def needs_outcome(self) -> bool:
        return any(c.needs_outcome for c in self.checks)

    @property
    def needs_values(self) -> bool:
        return bool(self.find(Mismatch))

    def extra_backends(self) -> set[str]:
        return {c.reference for c in self.find(Mismatch)} | {c.baseline for c in self.find(Slower)}

    # ---- judging ----
    def results(self, o: Outcome | None, ev: Evidence | None = None) -> dict[str, tuple[bool, str]]:
        """Every check's (holds, reason), by check name."""
        ev = ev or Evidence()
        return {k: (False, "not run") if o is None and c.needs_outcome else c.holds(o, ev)
                for k, c in self.keyed()}

    def keyed(self) -> list[tuple[str, Check]]:
        """(key, check) with unique keys: the check's name, ``name#2`` for a second one."""
        seen: Counter = Counter()
        out = []
        for c in self.checks:
            seen[c.name] += 1
            out.append((c.name if seen[c.name] == 1 else f"{c.name}#{seen[c.name]}", c))
        return out

    def holds(self, o: Outcome | None, ev: Evidence | None = None) -> tuple[bool, str]:
        """(True, what holds) or (False, why the first failing check fails)."""
        res = self.results(o, ev)
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
        checks = []
        for d in items:
            d = dict(d)
            kind = CHECKS[d.pop("check")]
            if kind is Schedulers and d.get("expected") is not None:
                d["expected"] = tuple(d["expected"])
            checks.append(kind(**d))
        return cls(tuple(checks))


# ---------------------------------------------------------------- evaluation
@dataclass
class Verdict:
    holds: bool
    reason: str
    checks: dict[str, tuple[bool, str]]
    outcome: Outcome | None
    evidence: Evidence

    def to_json(self) -> dict:
        d = {"holds": self.holds,
             "checks": {k: {"holds": ok, "reason": why} for k, (ok, why) in self.checks.items()}}
        ev = self.evidence
        if ev.comparison is not None:
            d["comparison"] = ev.comparison.to_json()
        if ev.comparison_fp64 is not None:
            d["comparison_fp64"] = ev.comparison_fp64.to_json()
        if ev.times and ev.baseline_times:
            d["timings"] = {"backend": ev.times, "baseline": ev.baseline_times}
        if ev.order is not None:
            d["order"] = ev.order.to_json()
        if ev.layout is not None:
            d["layout"] = ev.layout.to_json()
        return d


def evaluate(prop: Property, script_text: str, path: str, pool, *, extra_pools: Mapping[str, Any] | None = None,
             seed: int = 0, outcome: Outcome | None = None, all_checks: bool = False) -> Verdict:
    """Judge one candidate: run it on ``pool`` (unless ``outcome`` is given), then only the extra
    runs its checks need, cheapest first. ``extra_pools`` maps a backend name to a pool (anything
    with ``run(Request) -> Outcome``) for ``--mismatch``'s reference and ``--slower``'s baseline;
    ``pool`` serves a name equal to its own backend. Unless ``all_checks``, evaluation stops at
    the first failing check (what a reducer wants); ``fmin check`` asks for all."""
    pools = dict(extra_pools or {})
    ev = Evidence()
    if outcome is None and prop.needs_outcome:
        outcome = pool.run(Request(script_text, path, seed, want_values=prop.needs_values))
        own_values = True
    else:
        own_values = False

    def pool_for(name):
        if name in pools:
            return pools[name]
        if getattr(pool, "backend", None) == name:
            return pool
        return None

    keyed = prop.keyed()
    order = sorted(keyed, key=lambda kc: {Mismatch: 1, ShellTest: 2, Slower: 3, LayoutDependent: 4,
                                                     OrderDependent: 5}.get(type(kc[1]), 0))
    results: dict[str, tuple[bool, str]] = {}
    try:
        for key, c in order:
            if isinstance(c, Mismatch) and outcome is not None and outcome.ok:
                _gather_mismatch(c, script_text, path, seed, outcome, pool, pool_for(c.reference), ev)
            elif isinstance(c, ShellTest):
                ev.shell = run_shell_test(c.command, script_text, path, c.timeout)
            elif isinstance(c, Slower) and outcome is not None and outcome.ok:
                _gather_timing(c, script_text, path, seed, pool, pool_for(c.baseline), ev)
            elif isinstance(c, OrderDependent) and outcome is not None:
                _gather_order(c, script_text, path, seed, outcome, pool, ev)
            elif isinstance(c, LayoutDependent) and outcome is not None:
                _gather_layout(script_text, path, seed, outcome, pool, ev)
            results[key] = (False, "not run") if outcome is None and c.needs_outcome else c.holds(outcome, ev)
            if not results[key][0] and not all_checks:
                break
    finally:
        if own_values and outcome is not None:
            _drop_values(outcome)
    results = {k: results[k] for k, _ in keyed if k in results}   # in the property's order
    failing = next(((k, why) for k, (ok, why) in results.items() if not ok), None)
    if failing:
        return Verdict(False, f"{failing[0]}: {failing[1]}", results, outcome, ev)
    return Verdict(True, "; ".join(why for _, why in results.values()), results, outcome, ev)


def _drop_values(o: Outcome) -> None:
    """Saved values can be large (hundreds of MB for real repros): delete them once judged."""
    if o.values_path:
        try:
            os.remove(o.values_path)
        except OSError:
            pass
    o.values_path = None
    o.values = None


def _values(o: Outcome):
    if o.values is not None:
        return o.values
    return o.load_values() if o.values_path else None


def _uses_random_ops(text: str, path: str) -> list[str]:
    try:
        from ..ops import CATALOG
        from ..program import parse
        prog = parse(text, path)
    except Exception:
        return []
    return sorted({s.op for s in prog.op_stmts() if getattr(CATALOG.get(s.call), "family", "") == "random"})


def _gather_mismatch(c: Mismatch, text, path, seed, o: Outcome, pool, ref_pool, ev: Evidence) -> None:
    rnd = _uses_random_ops(text, path)
    if rnd:
        ev.notes["mismatch"] = f"uses random ops ({', '.join(rnd)}): values differ between backends by design"
        return
    if ref_pool is None:
        ev.notes["mismatch"] = f"no {c.reference} pool to compare with"
        return
    mine = _values(o)
    if mine is None:   # the caller's outcome came without values: run again, keeping them
        o2 = pool.run(Request(text, path, seed, want_values=True))
        mine = _values(o2) if o2.ok else None
        _drop_values(o2)
        if mine is None:
            ev.notes["mismatch"] = f"a second run to save values gave {_failure_words(o2)}"
            return
    r = ref_pool.run(Request(text, path, seed, want_values=True))
    ev.reference = r
    try:
        theirs = _values(r) if r.ok else None
    finally:
        _drop_values(r)
    if theirs is None:
        return
    (ins, outs), (rins, routs) = mine, theirs
    labels = [f"output {i}" for i in range(len(routs))]
    # inputs after execute: an aliased output (``add_output(x, alias_input=T0)``) updates one
    n_in = min(len(ins), len(rins))
    labels += [f"input {i} (after execute)" for i in range(n_in)]
    ev.comparison = compare(list(outs) + list(ins[:n_in]), list(routs) + list(rins[:n_in]),
                            scale=c.scale, labels=labels) if len(outs) == len(routs) else \
        compare(outs, routs, scale=c.scale)
    if ev.comparison.ok or len(outs) != len(routs) or not _has_low_precision(outs) or \
            any(d.what != "values" for d in ev.comparison.outputs if not d.ok):
        return   # nothing to confirm: equal, or a different dtype or shape (no rounding explains that)
    # eager rounds after every op, a fusing compiler need not: confirm against fp64
    r64 = ref_pool.run(Request(text, path, seed, want_values=True, options={"fp64": True}))
    try:
        v64 = _values(r64) if r64.ok else None
    finally:
        _drop_values(r64)
    if v64 is None:
        ev.notes["mismatch-fp64"] = f"the fp64 reference gave {_failure_words(r64)}"
        return
    ev.comparison_fp64 = compare(outs, v64[1], scale=c.scale, fp64_ref=True)


def _has_low_precision(values) -> bool:
    import torch
    return any(isinstance(v, torch.Tensor) and v.dtype in (torch.float16, torch.bfloat16, torch.float32)
               for v in values)


def _gather_order(c: OrderDependent, text, path, seed, o: Outcome, pool, ev: Evidence) -> None:
    from . import order
    try:
        ev.order = order.gather(c, text, path, seed, o, pool)
    except Exception as e:   # a script the model cannot reorder: say so rather than fail the run
        ev.notes["order-dependent"] = f"could not permute the inputs: {type(e).__name__}: {e}"


def _gather_layout(text, path, seed, o: Outcome, pool, ev: Evidence) -> None:
    from . import layout
    try:
        ev.layout = layout.gather(text, path, seed, o, pool)
    except Exception as e:   # a script the model cannot relayout: say so rather than fail the run
        ev.notes["layout-dependent"] = f"could not change the input layouts: {type(e).__name__}: {e}"


def _exec_seconds(o: Outcome) -> float:
    return o.execute_seconds if o.execute_seconds is not None else o.seconds


def _gather_timing(c: Slower, text, path, seed, pool, base_pool, ev: Evidence) -> None:
    if base_pool is None:
        ev.notes["slower"] = f"no {c.baseline} pool to time against"
        return
    opts = {"time_execute": c.repeats}
    ev.times, ev.baseline_times = [], []
    for _ in range(c.repeats):
        a = pool.run(Request(text, path, seed, options=opts))
        b = base_pool.run(Request(text, path, seed, options=opts))
        if not a.ok:
            ev.notes["slower"] = f"a timing run gave {_failure_words(a)}"
            ev.times = None
            return
        if not b.ok:
            ev.baseline_failure = f"the {c.baseline} run gave {_failure_words(b)}"
            return
        ev.times.append(_exec_seconds(a))
        ev.baseline_times.append(_exec_seconds(b))


# ---------------------------------------------------------------- --test
def run_shell_test(command: str, script_text: str, path: str, timeout: float = 300.0) -> ShellResult:
    """Run ``command`` as C-Reduce runs an interestingness test (see ``ShellTest``)."""
    base = os.path.basename(path) if path and not path.startswith("<") else "repro.py"
    cwd = os.getcwd()
    shell = shutil.which("bash") or "/bin/sh"
    with tempfile.TemporaryDirectory(prefix="fmin-test-") as d, tempfile.TemporaryFile() as log:
        copy = os.path.join(d, base)
        with open(copy, "w", encoding="utf-8") as f:
            f.write(script_text)
        cmd = _absolute_command(command, cwd, d)
        env = {**os.environ, "FMIN_SCRIPT": copy, "FMIN_CWD": cwd,
               "FMIN_ORIGINAL": os.path.abspath(path) if path and not path.startswith("<") else ""}
        t0 = time.perf_counter()
        words = shlex.split(cmd)
        if len(words) == 1 and os.access(words[0], os.X_OK):
            argv = [words[0], copy]   # a test script, picire-style: the candidate's path is its $1
        else:
            argv = [shell, "-c", cmd, "fmin-test", copy]   # a shell snippet: "$1" is the candidate
        p = subprocess.Popen(argv, cwd=d, env=env, stdin=subprocess.DEVNULL,
                             stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            rc = p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            rc = None
        finally:
            try:   # the command's whole process group: nothing it started outlives the test
                os.killpg(p.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            p.wait()
        secs = time.perf_counter() - t0
        log.seek(0, 2)
        log.seek(max(0, log.tell() - 8000))
        return ShellResult(rc, log.read().decode(errors="replace"), secs)


def _absolute_command(command: str, cwd: str, tmp: str) -> str:
    """``./interesting.sh args`` -> ``/abs/interesting.sh args`` when it names a file under the
    starting directory (the command runs elsewhere); anything else is left as written."""
    m = re.match(r"\s*([^\s;&|<>()'\"$`]+)", command)
    if not m:
        return command
    tok = m.group(1)
    if "/" not in tok or tok.startswith(("/", "~")):
        return command
    if os.path.exists(os.path.join(tmp, tok)) or not os.path.exists(os.path.join(cwd, tok)):
        return command
    return command[:m.start(1)] + shlex.quote(os.path.abspath(os.path.join(cwd, tok))) + command[m.end(1):]
