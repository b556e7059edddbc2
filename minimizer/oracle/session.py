"""The one funnel every candidate of a command goes through: consider → cache → run → incorporate
(the Hypothesis shrinker's shape: every test call through one cached function).

``Session.consider`` takes a candidate program and decides, before any run, whether it is worth
running: prepared (dead code out, for the reducer), statically checked on meta tensors,
filtered (the property's static checks, the degenerate-tensor guard), admitted by the caller
(the reducer: smaller than its best), and looked up in the cache. ``Session.judge`` runs what is
left through a judge and accounts for what came back: a candidate that fails *differently* from
the original is "also interesting" (C-Reduce's slippage: kept aside, never accepted); one set of
counters (tests, cache hits, invalid, filtered). The cache is keyed by the candidate's text, so it
survives a resume (``save``/``load``). The reducer, ``isolate``, ``check`` and the fuzzer all
judge through a Session.

``PropertyOracle`` is the judge of a property on real backends: it runs the original
``replays`` times first (``establish``: the property is derived from the first run unless flags
give one, and a property that holds only sometimes makes every candidate hold twice), then judges
each candidate with ``property.evaluate``.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ..backends import RunOptions, get as get_backend
from .outcome import Outcome
from .pool import Pools, Request
from .property import Evaluation, Property, evaluate
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
    #: what the command's judge needs besides the text (a fuzz example: its id seeds the variants)
    context: object = field(default=None, compare=False)
    #: its static check, where the funnel made it (checks that read it need not check again)
    info: object = field(default=None, compare=False)


@dataclass
class Verdict:
    """The funnel's answer for one candidate."""
    holds: bool
    reason: str = ""
    outcome: Outcome | None = None
    slipped: bool = False       # failed differently: "also interesting", not accepted
    cached: bool = False
    #: what the command's judge found besides (``check``: the property's verdict; the fuzzer:
    #: its findings); kept in memory, never saved with the cache
    detail: object = field(default=None, compare=False, repr=False)


Judge = Callable[[Sequence[Candidate]], Sequence[Verdict]]
Submit = Callable[[Candidate], Future]


class _Chained(Future):
    """A future of ``fn(inner.result())`` whose cancelling cancels ``inner`` (work queued in a
    runner is dropped when its caller gives up on it)."""

    def __init__(self, inner: Future, fn: Callable):
        super().__init__()
        self._inner = inner

        def done(f: Future) -> None:
            if self.cancelled():   # given up on while the work ran: nobody waits for it
                return
            if f.cancelled():
                super(_Chained, self).cancel()
                self.set_running_or_notify_cancel()
                return
            try:
                self.set_result(fn(f.result()))
            except BaseException as e:   # noqa: BLE001 - handed to whoever waits on it
                self.set_exception(e)
        inner.add_done_callback(done)

    def cancel(self) -> bool:
        self._inner.cancel()
        return super().cancel()


def chain(inner: Future, fn: Callable) -> Future:
    """A future of ``fn(inner.result())`` (a runner's answer as the Session's ``Verdict``)."""
    return _Chained(inner, fn)


def text_key(text: str) -> str:
    """A candidate's identity in the cache (and in a campaign's progress record)."""
    return hashlib.sha1(text.encode()).hexdigest()


_key = text_key


@dataclass
class Considered:
    """What the funnel made of one candidate before any run: the program as it will run (dead
    code out where the session prepares candidates), its text, its static facts, and either why
    it is not run (``skipped``) or its verdict from the cache (``verdict``)."""
    program: object
    text: str | None = None
    info: object = None
    skipped: str | None = None      # "invalid" (static check), "filtered" (static_filter), "declined" (admit)
    why: str = ""                   # the static check's or the filter's reason
    verdict: Verdict | None = None  # known from the cache

    @property
    def to_run(self) -> bool:
        return self.skipped is None and self.verdict is None

    def candidate(self) -> Candidate:
        return Candidate(self.text, self.program, info=self.info if getattr(self.info, "complete", False) else None)


class Session:
    """The candidate funnel of one command: ``consider`` (prepare → static check → filter →
    admit → cache), then ``judge`` (run what is not known → verdicts cached → slippage kept
    aside), with one set of counters. Every command judges through one: the reducer's passes,
    ``isolate``'s change sets, ``check``'s scripts, the fuzzer's programs.

    ``judge(candidates) -> verdicts`` (same order) runs candidates; ``prepare`` rewrites a
    program before it is checked (the reducer removes dead code); ``static`` is ``"strict"``
    (a program the static check rejects is never run), ``"partial"`` (an original fmin's
    reference rejects: candidates are run anyway, with the values known up to the failing
    statement) or None (no static check: the caller vouches for its programs);
    ``static_filter(program, info)`` returns why a statically valid candidate is not worth
    running; ``remember_invalid`` caches static rejections by text too (a change set that
    ``isolate`` meets again is not checked again); ``rules``: the static rules of
    ``program.validity`` a strictly checked candidate must obey besides (a reduction: those its
    original obeys, ``validity.enforced_for``), else it is invalid. The cache is keyed by the candidate's text, so
    it survives a resume (``save``/``load``)."""

    def __init__(self, judge: Judge | None = None, *, submit: Submit | None = None, prepare: Callable | None = None,
                 static: str | None = None, static_filter: Callable | None = None, remember_invalid: bool = False,
                 also_dir: str | None = None, rules: frozenset | None = None):
        if (judge is None) == (submit is None):
            raise ValueError("a Session needs a judge or a submit, not both")
        self._judge = judge
        self._submit = submit
        self._pending: dict[str, Future] = {}
        #: texts known to have been judged elsewhere (a resumed campaign's record): ``seen``
        #: answers yes for them though their verdicts are not here
        self.known: set[str] = set()
        self.prepare = prepare
        self.static = static
        self.static_filter = static_filter
        self.rules = rules
        self.remember_invalid = remember_invalid
        self.cache: dict[str, Verdict] = {}
        self._invalid: dict[str, str] = {}
        self.tests = 0
        self.cache_hits = 0
        self.invalid = 0
        self.filtered = 0
        self.also_dir = also_dir
        self.also: list[str] = []
        self._lock = threading.Lock()

    @classmethod
    def of_texts(cls, fn: Callable[[Sequence[str]], Sequence[Verdict]], **kw) -> "Session":
        """A session around a judge of plain texts (tests, benchmarks)."""
        return cls(lambda cands: fn([c.text for c in cands]), **kw)

    # ---- before any run ----
    def consider(self, program, admit: Callable | None = None) -> Considered:
        """One candidate through the funnel up to the run. ``admit(program, text, info)``: the
        caller's last word before the cache (the reducer admits only candidates smaller than its
        best)."""
        from ..program.interpret import FusionError
        from ..program.printer import to_source
        from ..program.static import check_partial
        from ..program.validity import check
        if self.prepare is not None:
            program = self.prepare(program)
        text = to_source(program) if self.remember_invalid else None
        if text is not None and _key(text) in self._invalid:
            return Considered(program, text, None, "invalid", self._invalid[_key(text)])
        info = None
        if self.static == "partial":
            info = check_partial(program)
        elif self.static == "strict":
            try:
                info = check(program, rules=self.rules)
            except FusionError as e:
                with self._lock:
                    self.invalid += 1
                    if text is not None:
                        self._invalid[_key(text)] = str(e)
                return Considered(program, text, None, "invalid", str(e))
        if info is not None and info.complete and self.static_filter is not None:
            why = self.static_filter(program, info)
            if why is not None:
                with self._lock:
                    self.filtered += 1
                return Considered(program, text, info, "filtered", why)
        text = text if text is not None else to_source(program)
        if admit is not None and not admit(program, text, info):
            return Considered(program, text, info, "declined")
        hit = self.cache.get(_key(text))
        if hit is not None:
            with self._lock:
                self.cache_hits += 1
            return Considered(program, text, info, verdict=dataclasses.replace(hit, cached=True))
        return Considered(program, text, info)

    def lookup(self, text: str) -> bool | None:
        hit = self.cache.get(_key(text))
        return None if hit is None else hit.holds

    # ---- the runs ----
    def judge(self, cands: Sequence[Candidate | str]) -> list[Verdict]:
        """Verdicts in the order given: known texts from the cache, the rest (each distinct text
        once) from the judge, all at once."""
        cands = [c if isinstance(c, Candidate) else Candidate(c) for c in cands]
        if self._submit is not None:
            futures = [self.submit(c) for c in cands]
            first: dict[int, Future] = {}
            out = []
            for f in futures:   # a text twice in one batch: the second is a cache hit
                v = f.result()
                out.append(v if id(f) not in first else dataclasses.replace(v, cached=True))
                first[id(f)] = f
            return out
        out: list[Verdict | None] = [None] * len(cands)
        todo: dict[str, list[int]] = {}
        for i, c in enumerate(cands):
            k = _key(c.text)
            hit = self.cache.get(k)
            if hit is not None or k in todo:
                with self._lock:
                    self.cache_hits += 1
            if hit is not None:
                out[i] = dataclasses.replace(hit, cached=True)
            else:
                todo.setdefault(k, []).append(i)
        if todo:
            firsts = [idx[0] for idx in todo.values()]
            verdicts = list(self._judge([cands[i] for i in firsts]))
            for (k, idx), v in zip(todo.items(), verdicts):
                out[idx[0]] = self._record(k, cands[idx[0]].text, v)
                for i in idx[1:]:
                    out[i] = dataclasses.replace(v, cached=True)
        return out  # type: ignore[return-value]

    def submit(self, cand: Candidate) -> Future:
        """One candidate, asynchronously (``check`` prints rows as scripts finish; the fuzzer keeps
        a window of programs in flight): a known text's verdict at once, a text in flight its
        pending future, else the judge's future, cached and counted when it completes."""
        k = _key(cand.text)
        with self._lock:
            hit = self.cache.get(k)
            pending = self._pending.get(k)
            if hit is not None or pending is not None:
                self.cache_hits += 1
        if hit is not None:
            f: Future = Future()
            f.set_result(dataclasses.replace(hit, cached=True))
            return f
        if pending is not None:
            return pending
        if self._submit is None:   # a batch judge: run it now
            f = Future()
            f.set_result(self._record(k, cand.text, self._judge([cand])[0]))
            return f
        inner = self._submit(cand)
        with self._lock:
            self._pending[k] = inner
        inner.add_done_callback(lambda fut: fut.cancelled() or fut.exception() is not None
                                or self._record(k, cand.text, fut.result()))
        return inner

    def seen(self, text: str) -> bool:
        """Has this text been judged, or is it being judged, or is it ``known``?"""
        k = _key(text)
        return k in self.cache or k in self._pending or k in self.known

    def _record(self, k: str, text: str, v: Verdict) -> Verdict:
        with self._lock:
            self.tests += 1
            self.cache[k] = v
            self._pending.pop(k, None)
        if v.slipped:
            self._save_also(text, v)
        return v

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
        """The verdicts (holds, reason) by text key; outcomes stay in memory only."""
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({k: [v.holds, v.reason] for k, v in self.cache.items()}, f)
        os.replace(tmp, path)

    def load(self, path: str) -> int:
        """Merge a saved cache; returns how many entries it had."""
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
        except (OSError, ValueError):
            return 0
        self.cache.update({k: Verdict(bool(v[0]), str(v[1])) for k, v in d.items()})
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

    def __init__(self, outcome, backend=None):
        from .outcome import outcome_words
        what = outcome_words(outcome) if outcome is not None else "ok"
        Exception.__init__(self, f"the original runs fine ({what}): nothing to reduce by default; name what to "
                                 f"keep (e.g. {', '.join(self.suggestions(backend))})")
        self.prop, self.reason, self.outcome = "default", what, outcome

    @staticmethod
    def suggestions(backend) -> list[str]:
        """Property flags worth naming on ``backend`` (a ``Backend``; None: any): a segment check
        only where the backend reports segments, since elsewhere it is refused as a usage error."""
        segments = ["--kernels '>=2'"] if backend is None or backend.facts.reports_segments else []
        return [*segments, "--mismatch", "--slower 2", "--error REGEX", "--test CMD"]


@dataclass
class Baseline:
    """What the original showed: its first run, the bound property, the replays."""
    first: Outcome | None
    prop: Property
    replays: list[Evaluation]

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

    def establish(self, original, replays: int = 3) -> Baseline:
        """Run the original (an ``oracle.original.Original``: read and statically checked once,
        by the caller); derive or bind the property; replay it. Raises Refused when the
        original's failure is the script's or the machine's (``triage``), PropertyDoesNotHold
        (NothingToReduce when, asked nothing, the original shows nothing)."""
        text = original.run_text
        connected = original.connected
        self.degenerate = original.degenerate
        self.static_error = original.static_error   # the reference rejects it: the backend alone judges
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
                raise NothingToReduce(first, get_backend(self.pools.primary.backend))
        info = original.info if original.info.complete else None
        runs = [self.evaluate(text, original.program, info) for _ in range(max(1, replays))]
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
        segments them apart: a count met that way is not the user's) or is a black box (a
        ``--test``: a zero-size output may pass it for another reason), unless allowed."""
        return (not self.allow_degenerate and self.degenerate is not None and self.prop is not None
                and self.prop.guards_degenerate)

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

    def evaluate(self, text: str, program=None, info=None) -> Evaluation:
        return evaluate(self.prop, text, self.path, self.pools, seed=self.seed, program=program, options=self.options,
                        info=info)

    def judge_one(self, cand: Candidate) -> Verdict:
        flaky = self.baseline is not None and self.baseline.flaky
        v = None
        for _ in range(2 if flaky else 1):
            v = self.evaluate(cand.text, cand.program, cand.info)
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

    def replay(self, text: str, n: int) -> list[Evaluation]:
        return [self.evaluate(text) for _ in range(n)]

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown()
            self._executor = None
