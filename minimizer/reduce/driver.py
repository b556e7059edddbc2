"""The reduction driver: passes to a fixpoint, each candidate checked statically, cached, tested
in parallel batches and accepted in order.

Every candidate funnels through one place, the oracle's ``Session``: dead code removed, the static
check on meta tensors, the property's static filter, "smaller than the best?", the cache keyed on
the printed script, the run, slippage accounting; the driver only schedules. An original that
fmin's static check rejects (``lenient``: a bad reshape, a dtype error — often the very bug
reported) is reduced all the same: candidates skip the static filter and are judged by the
oracle, and passes see the values known up to the rejected statement (``static.check_partial``).
Candidates are taken from a pass ``jobs`` at a time and tested concurrently, but the one accepted is always the earliest in
the pass's order that holds, so the result never depends on timing. A candidate must be smaller
by ``order_key``: fewer ops, then fewer inputs, then fewer outputs, then (for cosmetic passes)
fewer input elements, shorter text, and the text itself — a total order, so the run ends and the
same input gives the same result byte for byte.

After every accepted step the best program so far is written (``repro.min.py``) with a state
file, so an interrupted run leaves a valid result and a re-run resumes from it. It is written with
the header of the run that confirmed *that* step (``header``, from the accepting verdict): a
best-so-far attached to an issue as it is must not name the original's machine and versions.
"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from .. import interrupt, report as reports
from ..model import Program
from ..oracle.session import Session, Verdict
from ..program import edits, static
from ..program.printer import to_source
from .passes import PASSES, Pass, cosmetic_key

# The oracle as the driver sees it: a Session, or scripts in, verdicts out (same order).
Judge = Callable[[Sequence[str]], Sequence[Verdict]]


@dataclass
class PassStats:
    proposed: int = 0
    invalid: int = 0
    cached: int = 0
    tested: int = 0
    accepted: int = 0
    seconds: float = 0.0


@dataclass
class Result:
    program: Program
    text: str
    stats: dict[str, PassStats]
    tests: int
    cache_hits: int
    seconds: float
    interrupted: bool = False
    also_interesting: list[str] = field(default_factory=list)
    #: the verdict that accepted ``program`` (None: the start, or a verdict from a resumed cache)
    verdict: Verdict | None = None


def order_key(p: Program, text: str, info=None) -> tuple:
    """Smaller is better: (ops, inputs, outputs), then what the cosmetic passes lower (input
    elements, extents, dtypes, layouts, scalars, input order, names), then bytes and the text
    itself (a total order, so ties cannot loop)."""
    return edits.size(p) + cosmetic_key(p, info) + (len(text), text)


class Reducer:
    """Scheduling only: which pass runs, which candidates form a batch, which one is accepted.
    Every candidate goes through the ``Session`` (``consider``, then ``judge``); a plain judge of
    texts (tests, benchmarks) is wrapped in one that checks candidates statically."""

    def __init__(self, program: Program, judge: "Session | Judge", *, jobs: int = 1, passes: list[Pass] | None = None,
                 out_dir: str | None = None, on_progress: Callable[[dict], None] | None = None,
                 max_tests: int | None = None, max_seconds: float | None = None,
                 also_interesting_dir: str | None = None, lenient: bool = False, info=None,
                 header: Callable[[Verdict | None], str] | None = None,
                 origin: tuple[tuple[int, int, int], int] | None = None):
        """``header(verdict)``: the comment block ``repro.min.py`` is written with, from the
        verdict that accepted the best program (None for the start: the caller's own
        confirmation, the original's replays). ``origin``: the (ops, inputs, outputs) and bytes
        progress counts from — the original's, where this run resumes from a best-so-far."""
        self.best = program
        self.best_text = to_source(program)
        self.header = header
        #: the verdict that accepted ``best`` (None: the start)
        self.best_verdict: Verdict | None = None
        #: the original fails fmin's static check (a bad reshape, a dtype error): candidates are
        #: judged by the oracle alone, passes get the values known before the failing statement
        self.lenient = lenient
        self.session = judge if isinstance(judge, Session) else \
            Session.of_texts(judge, prepare=edits.dce, static="partial" if lenient else "strict",
                             also_dir=also_interesting_dir)
        self.jobs = max(1, jobs)
        self.passes = passes if passes is not None else PASSES
        self.out_dir = out_dir
        self.on_progress = on_progress
        self.max_tests, self.max_seconds = max_tests, max_seconds
        self.stats = {p.name: PassStats() for p in self.passes}
        self.start_size, self.start_bytes = origin or (edits.size(program), len(self.best_text))
        self._t0 = time.perf_counter()
        self._pass_name = ""
        self._key = None
        #: the static facts of the best program (the caller's for the start: checked once)
        self._info = (program, info) if info is not None else None

    @property
    def tests(self) -> int:
        return self.session.tests

    @property
    def cache_hits(self) -> int:
        return self.session.cache_hits

    # ---- the loop ----
    def run(self) -> Result:
        interrupted = False
        try:
            changed = True
            while changed and not self._out_of_budget():
                changed = False
                for p in self.passes:
                    if self._out_of_budget():
                        break
                    if self._run_pass(p):
                        changed = True
        except KeyboardInterrupt:
            interrupted = True
        return Result(self.best, self.best_text, self.stats, self.tests, self.cache_hits,
                      time.perf_counter() - self._t0, interrupted, list(self.session.also), self.best_verdict)

    def _out_of_budget(self) -> bool:
        interrupt.check()   # a Ctrl-C whose raise a gc callback swallowed stops the reduction here
        if self.max_tests is not None and self.tests >= self.max_tests:
            return True
        return self.max_seconds is not None and time.perf_counter() - self._t0 >= self.max_seconds

    def _best_info(self):
        """The static facts of the best program (passes read them), computed once per program."""
        if self._info is None or self._info[0] is not self.best:
            info = static.check_partial(self.best) if self.lenient else static.check(self.best)
            self._info = (self.best, info)
        return self._info[1]

    def _run_pass(self, p: Pass) -> bool:
        """Run one pass until it proposes nothing acceptable; True if it changed the program."""
        self._pass_name = p.name
        st = self.stats[p.name]
        progressed = False
        start = 0
        while not self._out_of_budget():
            t0 = time.perf_counter()
            gen = p.candidates(self.best, self._best_info(), start)
            accepted = None
            exhausted = False
            while accepted is None and not exhausted and not self._out_of_budget():
                batch = []
                while len(batch) < self.jobs:
                    try:
                        pos, cand = next(gen)
                    except StopIteration:
                        exhausted = True
                        break
                    st.proposed += 1
                    c = self.session.consider(cand, admit=self._smaller)
                    if c.skipped in ("invalid", "filtered"):
                        st.invalid += 1
                    if c.skipped is not None:
                        continue
                    if c.verdict is not None:
                        st.cached += 1
                        if c.verdict.holds:
                            batch.append((pos, c))
                            break  # a known success ends the batch: nothing after it can win
                        continue
                    batch.append((pos, c))
                accepted = self._test_batch(batch, st)
            st.seconds += time.perf_counter() - t0
            if accepted is None:
                return progressed
            pos, c, verdict = accepted
            self._accept(c.program, c.text, st, verdict)
            if c.info is not None:
                self._info = (c.program, c.info)   # checked on its way through the funnel
            progressed = True
            start = pos
        return progressed

    def _smaller(self, cand: Program, text: str, info) -> bool:
        """Admit only candidates smaller than the best by ``order_key``."""
        return order_key(cand, text, info) < self._best_key()

    def _test_batch(self, batch, st: PassStats):
        todo = [c for _, c in batch if c.verdict is None]
        verdicts = iter(self.session.judge([c.candidate() for c in todo])) if todo else iter(())
        results = []
        for pos, c in batch:
            if c.verdict is None:
                v = next(verdicts)
                if v.cached:   # the same text twice in one batch
                    st.cached += 1
                else:
                    st.tested += 1
            else:
                v = c.verdict
            results.append((pos, c, v))
            self._progress()
        for pos, c, v in results:  # the earliest success in the pass's order wins
            if v.holds:
                return pos, c, v
        return None

    def _best_key(self) -> tuple:
        if self._key is None or self._key[0] is not self.best:
            self._key = (self.best, order_key(self.best, self.best_text, self._best_info()))
        return self._key[1]

    def _accept(self, cand: Program, text: str, st: PassStats, verdict: Verdict | None = None) -> None:
        st.accepted += 1
        self.best, self.best_text, self.best_verdict = cand, text, verdict
        self.save_best()
        self._progress(accepted=True)

    # ---- on disk ----
    def best_script(self) -> str:
        """The best program as written: with the header of the run that confirmed it."""
        if self.header is None:
            return self.best_text
        return reports.with_header(self.best_text, self.header(self.best_verdict))

    def save_best(self) -> None:
        """Write the best program so far as ``repro.min.py`` (atomically), with its header."""
        if not self.out_dir:
            return
        os.makedirs(self.out_dir, exist_ok=True)
        tmp = os.path.join(self.out_dir, ".repro.min.py.tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(self.best_script())
        os.replace(tmp, os.path.join(self.out_dir, "repro.min.py"))

    def _progress(self, accepted: bool = False) -> None:
        if self.on_progress is None:
            return
        ops, ins, outs = edits.size(self.best)
        self.on_progress({"pass": self._pass_name, "ops": ops, "inputs": ins, "outputs": outs,
                          "bytes": len(self.best_text), "start": self.start_size, "start_bytes": self.start_bytes,
                          "tests": self.tests, "cache_hits": self.cache_hits,
                          "elapsed": time.perf_counter() - self._t0, "accepted": accepted})


def stats_table(stats: dict[str, PassStats]) -> list[dict]:
    return [{"pass": k, **dataclasses.asdict(v)} for k, v in stats.items()]


def write_state(out_dir: str, original_text: str, prop: str, tests: int, done: bool) -> None:
    """What a re-run needs to resume: which original and property the best-so-far belongs to."""
    state = {"original_sha1": hashlib.sha1(original_text.encode()).hexdigest(), "property": prop,
             "tests": tests, "done": done}
    with open(os.path.join(out_dir, "state.json"), "w") as f:
        json.dump(state, f, indent=1)


def resume_point(out_dir: str, original_text: str, prop: str) -> tuple[str, int] | None:
    """The best-so-far script of an earlier run on the same original and property, and the
    oracle calls made so far (None: no such run)."""
    try:
        with open(os.path.join(out_dir, "state.json")) as f:
            state = json.load(f)
        with open(os.path.join(out_dir, "repro.min.py"), encoding="utf-8") as f:
            text = f.read()
    except (OSError, ValueError):
        return None
    if state.get("original_sha1") != hashlib.sha1(original_text.encode()).hexdigest() or state.get("property") != prop:
        return None
    return text, int(state.get("tests") or 0)
