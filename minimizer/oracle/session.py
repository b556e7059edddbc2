"""The one funnel every candidate of a command goes through: consider → cache → run → incorporate
(the Hypothesis shrinker's shape).

``Session`` takes candidates (their printed text; the program where the caller has it), answers
the ones it has judged before from its cache, runs the rest in parallel through a judge, and
accounts for what came back: a candidate that fails *differently* from the original is "also
interesting" (C-Reduce's slippage: kept aside, never accepted); counts of tests and cache hits.
The cache is keyed by the candidate's text, so it survives a resume (``save``/``load``).

``PropertyOracle`` is the judge of a property on real backends: it runs the original
``replays`` times first (``establish``: the property is derived from the first run unless flags
give one, and a property that holds only sometimes makes every candidate hold twice), then judges
each candidate with ``property.evaluate``.
"""
from __future__ import annotations

import hashlib
import json
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..backends import RunOptions
from .outcome import Outcome
from .pool import Pools, Request
from .property import Property, Verdict as PropertyVerdict, evaluate
from .triage import ENVIRONMENT, FUSION, SCRIPT, category, triage

#: error kinds that say a candidate is broken, not that it shows another bug (never "also interesting")
NOT_INTERESTING = frozenset({"user-input", "definition", "no-execute", "fmin-internal", "fmin-translation",
                             "script", "environment"})


@dataclass(frozen=True)
class Candidate:
    """A program to judge: its text (what runs) and, where the caller has it, the parsed program
    (checks that rewrite it need it; otherwise it is parsed once on demand)."""
    text: str
    program: object = field(default=None, compare=False)


@dataclass
class Verdict:
    """The funnel's answer for one candidate."""
    holds: bool
    reason: str = ""
    outcome: Outcome | None = None
    slipped: bool = False       # failed differently: "also interesting", not accepted
    cached: bool = False


Judge = Callable[[Sequence[Candidate]], Sequence[Verdict]]


def _key(text: str) -> str:
    return hashlib.sha1(text.encode()).hexdigest()


class Session:
    """Cache and accounting around a judge (``judge(candidates) -> verdicts``, same order)."""

    def __init__(self, judge: Judge, *, also_dir: str | None = None):
        self._judge = judge
        self.cache: dict[str, tuple[bool, str]] = {}
        self.tests = 0
        self.cache_hits = 0
        self.also_dir = also_dir
        self.also: list[str] = []
        self._lock = threading.Lock()

    @classmethod
    def of_texts(cls, fn: Callable[[Sequence[str]], Sequence[Verdict]], **kw) -> "Session":
        """A session around a judge of plain texts (tests, benchmarks)."""
        return cls(lambda cands: fn([c.text for c in cands]), **kw)

    def lookup(self, text: str) -> bool | None:
        hit = self.cache.get(_key(text))
        return None if hit is None else hit[0]

    def judge(self, cands: Sequence[Candidate | str]) -> list[Verdict]:
        cands = [c if isinstance(c, Candidate) else Candidate(c) for c in cands]
        out: list[Verdict | None] = [None] * len(cands)
        todo = []
        for i, c in enumerate(cands):
            hit = self.cache.get(_key(c.text))
            if hit is not None:
                self.cache_hits += 1
                out[i] = Verdict(hit[0], hit[1], cached=True)
            else:
                todo.append(i)
        if todo:
            verdicts = list(self._judge([cands[i] for i in todo]))
            for i, v in zip(todo, verdicts):
                self.tests += 1
                self.cache[_key(cands[i].text)] = (v.holds, v.reason)
                if v.slipped:
                    self._save_also(cands[i].text, v)
                out[i] = v
        return out  # type: ignore[return-value]

    # ---- slippage ----
    def _save_also(self, text: str, v: Verdict) -> None:
        if not self.also_dir:
            return
        with self._lock:
            os.makedirs(self.also_dir, exist_ok=True)
            sig = getattr(v.outcome, "signature", None) or v.reason
            h = hashlib.sha1(str(sig).encode()).hexdigest()[:10]
            path = os.path.join(self.also_dir, f"{h}.py")
            if not os.path.exists(path):
                with open(path, "w", encoding="utf-8") as f:
                    f.write(f"# also interesting: {sig}\n" + text)
                self.also.append(path)

    # ---- resume ----
    def save(self, path: str) -> None:
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({k: list(v) for k, v in self.cache.items()}, f)
        os.replace(tmp, path)

    def load(self, path: str) -> int:
        """Merge a saved cache; returns how many entries it had."""
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
        except (OSError, ValueError):
            return 0
        self.cache.update({k: (bool(v[0]), str(v[1])) for k, v in d.items()})
        return len(d)


class Refused(Exception):
    """The original cannot be judged: its failure is the script's own or the machine's
    (``triage``), not the fusion's. Nothing is reduced, nothing written."""

    def __init__(self, category: str, message: str, outcome=None):
        what = {"script": "the script itself is broken", "environment": "this machine cannot run it"}.get(category,
                                                                                                       category)
        super().__init__(f"{what}: {message}")
        self.category, self.message, self.outcome = category, message, outcome


class PropertyDoesNotHold(Exception):
    def __init__(self, prop: str, reason: str, outcome, detail: str = ""):
        more = "\n" + "\n".join("    " + ln for ln in detail.splitlines()) if detail else ""
        super().__init__(f"the original script does not show the property ({prop}): {reason}{more}")
        self.prop, self.reason, self.outcome, self.detail = prop, reason, outcome, detail


class NothingToReduce(PropertyDoesNotHold):
    """The original ran fine and, asked nothing, shows nothing worth keeping: reducing it would
    end at an empty fusion."""

    def __init__(self, outcome):
        from .outcome import outcome_words
        what = outcome_words(outcome) if outcome is not None else "ok"
        Exception.__init__(self, f"the original runs fine ({what}): nothing to reduce by default; name what to "
                                 f"keep (e.g. --kernels '>=2', --mismatch, --slower 2, --error REGEX, --test CMD)")
        self.prop, self.reason, self.outcome = "default", what, outcome


@dataclass
class Baseline:
    """What the original showed: its first run, the bound property, the replays."""
    first: Outcome | None
    prop: Property
    replays: list[PropertyVerdict]

    @property
    def held(self) -> int:
        return sum(v.holds for v in self.replays)

    @property
    def flaky(self) -> bool:
        return 0 < self.held < len(self.replays)


class PropertyOracle:
    """A property judged on real backends for candidates of one script (``path``)."""

    def __init__(self, prop: Property | None, pools: Pools, path: str, *, seed: int = 0,
                 options: RunOptions | None = None, allow_degenerate: bool = False):
        self.flags = prop
        self.prop: Property | None = prop
        self.pools, self.path, self.seed = pools, path, seed
        self.options = options or RunOptions()
        self.allow_degenerate = allow_degenerate
        self.baseline: Baseline | None = None
        self.degenerate: dict[str, str] | None = None   # the original's degenerate tensors (None: unknown)
        self.static_error: str | None = None            # why fmin's static check rejects the original
        self._executor: ThreadPoolExecutor | None = None

    def establish(self, text: str, replays: int = 3, program=None) -> Baseline:
        """Run the original; derive or bind the property; replay it. Raises Refused when the
        original's failure is the script's or the machine's (``triage``), PropertyDoesNotHold
        (NothingToReduce when, asked nothing, the original shows nothing)."""
        from ..program import parse
        from ..program.edits import tensor_components
        from ..program.interpret import FusionError
        from ..program.static import check, degenerate_features
        program = program or parse(text, self.path)
        connected = False
        try:
            info = check(program)
            connected = len(tensor_components(program, info)) == 1
            self.degenerate = degenerate_features(program, info)
        except FusionError as e:   # the reference rejects it: the backend alone judges (no static guards)
            self.static_error = e.describe(program) if hasattr(e, "describe") else str(e)
        needs_run = self.flags is None or self.flags.needs_outcome
        first = self.pools.primary.run(Request(text, self.path, RunOptions(seed=self.seed).over(self.options))) \
            if needs_run else None
        verdict = triage(first) if first is not None else None
        if verdict is not None and verdict.category in (SCRIPT, ENVIRONMENT):
            raise Refused(verdict.category, verdict.message, first)
        if self.flags is not None:
            self.prop = self.flags.bind(first)
        else:
            self.prop = Property.from_outcome(first, connected)
            if not self.prop.interesting:
                raise NothingToReduce(first)
        runs = [self.evaluate(text) for _ in range(max(1, replays))]
        self.baseline = Baseline(first, self.prop, runs)
        if self.baseline.held == 0:
            r = runs[0]
            detail = "\n".join(d for key, c in self.prop.keyed() if not r.checks.get(key, (True,))[0]
                               for d in [c.detail(r.evidence.get(key))] if d)
            raise PropertyDoesNotHold(self.prop.describe(), r.reason, first, detail)
        return self.baseline

    @property
    def guards_degenerate(self) -> bool:
        """Degenerate tensors are kept out where the property reads the segmentation (nvFuser
        segments them apart: a count met that way is not the user's), unless allowed."""
        return (not self.allow_degenerate and self.degenerate is not None and self.prop is not None
                and self.prop.reads_segments)

    def static_filter(self, program, info) -> str | None:
        """Why a candidate is not worth running (None: run it): a static check of the property
        fails, or it has a kind of degenerate tensor the original did not have."""
        why = self.prop.static(program, info) if self.prop is not None else None
        if why is not None or not self.guards_degenerate:
            return why
        from ..program.static import degenerate_features
        new = {k: v for k, v in degenerate_features(program, info).items() if k not in self.degenerate}
        if new:
            kind, example = next(iter(new.items()))
            return f"introduces a {kind} tensor ({example}) the original did not have"
        return None

    def evaluate(self, text: str, program=None) -> PropertyVerdict:
        return evaluate(self.prop, text, self.path, self.pools, seed=self.seed, program=program, options=self.options)

    def judge_one(self, cand: Candidate) -> Verdict:
        flaky = self.baseline is not None and self.baseline.flaky
        v = None
        for _ in range(2 if flaky else 1):
            v = self.evaluate(cand.text, cand.program)
            if not v.holds:
                break
        o = v.outcome
        first = self.baseline.first if self.baseline else None
        slipped = (not v.holds and o is not None and o.status != "ok" and first is not None
                   and o.signature != first.signature and (o.error_kind or "") not in NOT_INTERESTING
                   and category(o) == FUSION)
        return Verdict(v.holds, v.reason, o, slipped)

    def judge(self, cands: Sequence[Candidate]) -> list[Verdict]:
        if len(cands) == 1:
            return [self.judge_one(cands[0])]
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=max(1, self.pools.jobs))
        return list(self._executor.map(self.judge_one, cands))

    def replay(self, text: str, n: int) -> list[PropertyVerdict]:
        return [self.evaluate(text) for _ in range(n)]

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown()
            self._executor = None
