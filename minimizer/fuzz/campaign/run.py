"""``fmin fuzz``: a campaign. Generate programs chunk by chunk (``generate``), judge each with the
oracles on the worker pools (``oracles``), bucket the findings into the corpus (``store``),
minimize each new bucket with the reducer, and summarize (table, JSON, JUnit XML).

Programs are judged ``jobs`` at a time, but their results are taken in example order, so which
example opens a bucket does not depend on timing. The time budget (``--time``) bounds generation
and judging; minimizing the new buckets comes after, each bounded by ``minimize_seconds``.

Where programs are judged and buckets reduced is a *runner*: ``LocalRunner`` (this machine's warm
pools) or ``cluster.RayRunner`` (one actor per worker slot on a Ray cluster). Generation, the
order results are taken in, bucketing, the corpus, the progress record (``store.progress``,
for resuming a killed campaign) and the reports are this module's, whichever runner it is.
"""
from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from collections import Counter, deque
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from xml.sax.saxutils import escape, quoteattr

from ... import interrupt
from ...oracle.context import RunContext
from ...phases import Phases, recording
from ...oracle.pool import Pools, start_workers
from ...oracle.runners import Runner
from ...progress import ProgressLine
from ...program import to_source
from ..sources import feedback, generate, seedqueue, seeded
from ...oracle.session import Candidate, Session, Verdict, chain
from ..buglist import page as buglist
from ..filing.standalone import local_paths
from ..filing.filing import failed, file_bucket_dir, refile, write_filed
from ..store.progress import Progress
from ..store.store import Store, reduced_script
from ..judging.oracles import ORACLES, run_oracles
from ..judging.property import bucket_property
from ..judging.today import rekey_minimized
from ..store.record import Bucket, Reduction, StandaloneRun
from ..sources.strategies import covered_ops


@dataclass
class CampaignOptions:
    """What is a campaign's own; where and how its programs run is ``ctx`` (its ``seed`` is the
    torch seed of every run, 0 unless asked; this ``seed`` chooses the programs)."""
    ctx: RunContext = field(default_factory=lambda: RunContext(backend="inductor", timeout=300.0))
    seconds: float | None = None
    max_examples: int | None = None
    seed: int = 0
    shard: tuple[int, int] = (0, 1)
    corpus: str = "corpus/findings"
    junit: str | None = None
    summary: str | None = None
    frontend: str | None = None
    max_ops: int = 12
    oracles: tuple[str, ...] = ORACLES
    minimize: bool = True
    minimize_seconds: float = 300.0
    minimize_budget: float | None = None     # seconds for all minimizations of a campaign
    seeds: tuple[str, ...] = ()   # --seeds: mutate these folders' fusions instead of generating (``seeded``)
    resume: bool | None = None    # None: no progress record; True: record it and skip what it says was
    #                               judged; False: record it, starting over (``store.progress``)
    feedback: bool = False        # --feedback: seeded programs with new decisions join a queue (``seedqueue``)


@dataclass
class NewBucket:
    """A bucket a campaign opened: its record (as opened; once minimized, as filed) and its directory."""
    bucket: Bucket
    dir: str

    def to_json(self) -> dict:
        return {**self.bucket.to_json(), "dir": self.dir}


@dataclass
class Summary:
    backend: str
    device: str
    seed: int
    shard: str
    programs: int = 0
    duplicates: int = 0
    seconds: float = 0.0
    judge_seconds: float = 0.0
    skipped: Counter = field(default_factory=Counter)
    statuses: Counter = field(default_factory=Counter)
    ops: Counter = field(default_factory=Counter)
    findings: Counter = field(default_factory=Counter)      # kind -> occurrences
    new: list[NewBucket] = field(default_factory=list)      # new buckets
    known: Counter = field(default_factory=Counter)         # bucket id -> occurrences this campaign
    environment: dict = field(default_factory=dict)
    minimized: list[str] = field(default_factory=list)      # bucket keys minimized by this campaign
    resumed: int = 0                                        # programs judged before a resume, skipped
    ran_on: str = ""                                        # where, when not this machine (a Ray cluster)
    hit: list[dict] = field(default_factory=list)           # the bug list's rows of the buckets hit, new first
    phases: Phases = field(default_factory=Phases)          # where the time went: the driver's and the slots'
    slots: int = 0                                          # programs judged at once (threads here, actors on Ray)
    startup_seconds: float = 0.0                            # the runner's start-up, before the clock (``--time``)
    seeds: Counter = field(default_factory=Counter)         # seed file -> seeded programs judged (``--seeds``)
    seed_seconds: Counter = field(default_factory=Counter)  # seed file -> slot seconds judging its programs
    large_seeds: Phases = field(default_factory=Phases)     # programs of seeds over budget: "trimmed", "as written"
    interrupted: bool = False                               # stopped by Ctrl-C or SIGTERM: the figures so far
    decisions: feedback.Coverage = field(default_factory=feedback.Coverage)   # decision features covered
    queue: list = field(default_factory=list)               # --feedback: the queue's entries (``Entry.to_json``)
    derived: int = 0                                        # --feedback: programs derived from queue entries

    @property
    def per_second(self) -> float:
        return self.programs / self.judge_seconds if self.judge_seconds else 0.0

    def workers_started(self) -> dict:
        """Worker processes started during the campaign, by backend (restarts after a crash count)."""
        return {k.removeprefix("worker start "): v[1] for k, v in sorted(self.phases.data.items())
                if k.startswith("worker start ")}

    def coverage(self) -> tuple[int, int]:
        cov = covered_ops()
        return len(cov & set(self.ops)), len(cov)

    def to_json(self) -> dict:
        got, of = self.coverage()
        return {"backend": self.backend, "device": self.device, "seed": self.seed, "shard": self.shard,
                "programs": self.programs, "duplicates_skipped": self.duplicates,
                "seconds": round(self.seconds, 1), "judge_seconds": round(self.judge_seconds, 1),
                "programs_per_second": round(self.per_second, 3), "statuses": dict(self.statuses),
                "skipped": dict(self.skipped), "op_coverage": {"ops": got, "of": of, "counts": dict(self.ops)},
                "findings": dict(self.findings), "new_buckets": [n.to_json() for n in self.new],
                "known_buckets": dict(self.known),
                "minimized": self.minimized, "buckets_hit": self.hit,
                "environment": self.environment, "slots": self.slots, "workers_started": self.workers_started(),
                "startup_seconds": round(self.startup_seconds, 1),
                "phases": self.phases.to_json(),
                "decision_coverage": self.decisions.to_json(),
                **({"feedback": {"queue": self.queue, "derived_programs": self.derived}} if self.queue or self.derived
                   else {}),
                **({"resumed_skipped": self.resumed} if self.resumed else {}),
                **({"interrupted": True} if self.interrupted else {}),
                **({"ran_on": self.ran_on} if self.ran_on else {}),
                **({"seeded_programs": sum(self.seeds.values()), "per_seed": dict(self.seeds),
                   "per_seed_seconds": {k: round(v, 1) for k, v in self.seed_seconds.items()},
                   "large_seeds": self.large_seeds.to_json()} if self.seeds else {})}


class Status(ProgressLine):
    """The campaign's progress: programs, rate, op coverage, findings and buckets."""

    def __call__(self, s: Summary, t0: float, final: bool = False) -> None:
        got, of = s.coverage()
        el = time.monotonic() - t0
        self.show(f"[{el:6.0f}s] programs {s.programs}  {s.programs / max(el, 1e-9):.2f}/s  ops {got}/{of}  "
                  f"findings {sum(s.findings.values())}  new buckets {len(s.new)}  known {len(s.known)}", final)


def default_frontend(backend: str) -> str | None:
    """The frontend to generate for when none is asked: both (None), except where the backend
    cannot run legacy scripts as written (``Backend.translation``: nvFuser without its legacy
    module, 0.2.36 removed it) — a legacy program there could only be refused unjudged, half of
    a campaign's programs wasted."""
    from ...backends import get
    from ...model import Dialect
    return get(backend).translation(Dialect()) or None


def _chunks(opt: CampaignOptions):
    i, n = opt.shard
    k = i
    while True:
        yield k
        k += n


#: programs a campaign keeps submitted per judging slot ahead of the one it waits for. Results
#: are taken in example order, so a slow program at the head holds every slot that has nothing
#: left to judge: with 2 per slot (the old depth) one compile 2x slower than the rest idled the
#: others. 16 per slot lets a head 16x slower than the median pass unnoticed; pending programs
#: cost a few KB each.
AHEAD_PER_SLOT = 16


def window_for(slots: int) -> int:
    """How many programs a runner with ``slots`` judging slots keeps submitted (``AHEAD_PER_SLOT``)."""
    return max(generate.CHUNK, AHEAD_PER_SLOT * max(1, slots))


# ---------------------------------------------------------------- where the work runs
class LocalRunner:
    """A ``Runner`` (``oracle.runners``; ``cluster.RayRunner`` is the other one) on this machine:
    the run context's warm pools of ``jobs`` workers for the backend and the reference
    (``RunContext.judging_pools``), ``jobs`` programs judged at a time, one bucket reduced at a
    time (the reducer's own parallel windows use the ``jobs`` workers); ``describe()`` is ""."""

    def __init__(self, opt: CampaignOptions):
        self.opt = opt
        self.window = window_for(opt.ctx.jobs)
        self.reduce_slots = 1
        self.n = max(1, opt.ctx.jobs)   # slots: programs judged at once
        self.phases = Phases()          # the start-up's (``warm_up``), merged into the campaign's

    def __enter__(self):
        from ...backends import get as get_backend
        ProgressLine(self.opt.ctx.quiet).starting(
            get_backend(self.opt.ctx.backend), self.opt.ctx.device, self.n,
            f"(+ as many reference workers) for {self.n} judging slot(s)"
            if self.opt.ctx.backend != "reference" else f"for {self.n} judging slot(s)")
        self._pools = self.opt.ctx.judging_pools()
        self.pool, self.ref = self._pools.__enter__()
        self.warm_up()
        self._ex = ThreadPoolExecutor(max_workers=max(1, self.opt.ctx.jobs))
        self.workdir = tempfile.mkdtemp(prefix="fmin-fuzz-")
        return self

    def __exit__(self, *exc):
        try:
            self._ex.shutdown(wait=True, cancel_futures=True)
        finally:
            shutil.rmtree(self.workdir, ignore_errors=True)
            self._pools.__exit__(*exc)
        return False

    def warm_up(self) -> None:
        """Every worker of both pools started at once, before the campaign's clock starts
        (``run_campaign``): started lazily, they started in front of the first programs while
        the clock ran, and a short campaign at many slots spent its time importing torch."""
        with recording(self.phases):
            start_workers([self.pool] if self.ref is self.pool else [self.pool, self.ref])

    def judge_example(self, e, text: str) -> Future:
        return self._ex.submit(judge_example, e, text, _script_path(self.workdir, e.id), self.pool, self.ref, self.opt)

    def reduce(self, key: str, meta: Bucket, outcome: dict | None, bucket_dir: str) -> Future:
        """In place (the reducer writes the bucket directory as it goes, and resumes from it) and
        in this thread, one at a time."""
        f: Future = Future()
        f.set_running_or_notify_cancel()
        f.set_result(reduce_bucket(os.path.join(bucket_dir, "original.py"), bucket_dir, meta, outcome, self.opt,
                                   self.pool, self.ref))
        return f

    def recheck(self, job: dict) -> Future:
        return self._ex.submit(recheck_bucket, job, self.opt, self.pool, self.ref)

    def describe(self) -> str:
        return ""


def run_campaign(opt: CampaignOptions, runner: Runner | None = None) -> Summary:
    """Run one campaign; findings land in ``opt.corpus``. Never raises for a finding. ``runner``:
    where programs are judged and buckets reduced (default: ``LocalRunner``, this machine's
    pools); generating, bucketing and the corpus stay here."""
    run = _Campaign(opt)
    runner = runner if runner is not None else LocalRunner(opt)
    try:
        with runner:
            run.start_clock()   # after the runner's start-up: ``--time`` is time spent judging
            run.s.phases.merge(getattr(runner, "phases", None))
            run.s.ran_on = runner.describe()
            run.s.slots = getattr(runner, "n", 0)
            run.generate_and_judge(runner)
            run.status(run.s, run.t0, final=True)
            if opt.minimize:
                # what was judged is on disk before the reductions, which a time limit may cut short
                run.s.seconds = time.monotonic() - run.t_created
                write_reports(run.s, opt)
                run.minimize_pending(runner)
        run.s.hit = run.hit_rows()
    except KeyboardInterrupt:   # Ctrl-C, or SIGTERM (``cli``): the reports of what was done, then stop
        interrupt.clear()
        run.s.interrupted = True
        _finish(run, opt)
        raise Interrupted(run.s) from None
    finally:
        run.close()
    _finish(run, opt)
    return run.s


class Interrupted(KeyboardInterrupt):
    """A campaign stopped by Ctrl-C or SIGTERM, with the ``Summary`` of what it did (reports and
    bug list already written), for the command line to print."""

    def __init__(self, summary: "Summary"):
        super().__init__()
        self.summary = summary


def _finish(run: "_Campaign", opt: CampaignOptions) -> None:
    run.s.seconds = time.monotonic() - run.t_created
    write_reports(run.s, opt)
    buglist.write(opt.corpus)


class _Campaign:
    """One campaign's state: the corpus, the summary, the clock, the programs seen so far, the
    buckets it opened and, when resuming is on, the progress record."""

    def __init__(self, opt: CampaignOptions):
        self.opt = opt
        self.store = Store(opt.corpus)
        self.s = Summary(opt.ctx.backend, opt.ctx.device, opt.seed, f"{opt.shard[0]}/{opt.shard[1]}")
        self.status = Status(opt.ctx.quiet, every=10)
        self.t_created = time.monotonic()
        self.start_clock()
        self.progress = None
        if opt.resume is not None:
            self.progress = Progress(opt.corpus, opt.ctx.backend, opt.ctx.device, opt.seed, opt.shard,
                                     {"frontend": opt.frontend, "max_ops": opt.max_ops}, resume=opt.resume)
            self.s.resumed = len(self.progress.judged)
        self.session: Session | None = None   # the funnel, once the runner is there (``generate_and_judge``)
        self.submitted = 0
        self.new_keys: list[tuple[str, dict]] = []
        self.queue = seedqueue.Queue() if opt.feedback and opt.seeds else None
        self.window: deque = deque()   # the programs in flight (``generate_and_judge``)
        self.chunks_taken = 0          # chunk markers taken: the position of the chunk being taken

    def close(self) -> None:
        if self.progress:
            self.progress.close()

    def start_clock(self) -> None:
        """The campaign's clock (``--time``) starts now; the time since it was created (the
        runner's start-up: workers, actors) is the summary's ``startup_seconds``."""
        self.t0 = time.monotonic()
        self.deadline = self.t0 + self.opt.seconds if self.opt.seconds else None
        self.s.startup_seconds = self.t0 - self.t_created

    def out_of_time(self) -> bool:
        return bool(self.deadline and time.monotonic() >= self.deadline)

    def left(self) -> int | None:
        """Programs ``max_examples`` still allows (judged before a resume count)."""
        limit = self.opt.max_examples
        return None if limit is None else max(0, limit - self.s.resumed - self.submitted)

    def programs(self):
        """What to judge, in example order: ``(example, text)`` for each program not seen before
        (nor judged before a resume), within ``max_examples``; ``("chunk", k)`` once every
        program of chunk ``k`` has been handed out. Generated chunk by chunk, as the caller asks."""
        done = self.progress.chunks if self.progress else set()
        position = 0   # chunks generated so far (the feedback queue's clock)
        for k in _chunks(self.opt):
            if self.out_of_time() or self.left() == 0:
                return
            if k in done:
                continue
            position += 1
            if self.queue is not None and not self.settle(position - self.queue.lag):
                return   # out of time while taking the results the queue needs
            try:
                examples = self.chunk(k, position - 1)
            except Exception as err:   # the generator's own bug: a finding of fmin's, not the end
                self.record(generator_finding(err, self.opt.seed, k),
                            f"# chunk {k} of seed {self.opt.seed} could not be generated\n",
                            f"{self.opt.seed}.{k}.-", None)
                yield "chunk", k
                continue
            for e in examples:
                if self.left() == 0:
                    return
                if self.progress and e.id in self.progress.judged:
                    continue
                with self.s.phases.timed("driver print"):
                    text = to_source(e.program)
                with self.s.phases.timed("driver dedup"):
                    seen = self.session.seen(text)
                if seen:   # judged already, in flight, or judged before a resume
                    self.s.duplicates += 1
                    continue
                self.submitted += 1
                yield e, text
            yield "chunk", k

    def chunk(self, k: int, position: int) -> list:
        """Chunk ``k``'s examples; with a feedback queue, some derived from its entries (those of
        the chunks up to ``position - lag``, taken before: ``settle``)."""
        with self.s.phases.timed("driver generate"):
            examples = program_chunk(self.opt, k)
            return examples if self.queue is None else self.queue.mix(examples, position)

    def settle(self, chunks: int) -> bool:
        """Results taken (in example order) until ``chunks`` chunks are taken whole; False once
        the time is up."""
        while self.chunks_taken < chunks and self.window:
            if not self.take_next(self.window):
                return False
        return True

    def generate_and_judge(self, runner) -> None:
        """Programs handed to ``runner`` through the campaign's ``Session`` (a text judged once)
        as they are generated, up to ``runner.window`` ahead; results taken in example order
        (which example opens a bucket does not depend on timing or on where it ran). Past the
        deadline the rest is cancelled."""
        self.session = Session(submit=lambda c: chain(runner.judge_example(c.context, c.text),
                                                      lambda j: Verdict(bool(j.findings), outcome=j.outcome, detail=j)))
        if self.progress:
            self.session.known |= self.progress.seen
        if self.queue is not None:
            self.queue.lag = seedqueue.lag_for(runner.window)
        window = self.window
        t_first = None
        try:
            for item in self.programs():
                if isinstance(item[0], str):   # ("chunk", k): every program of chunk k handed out
                    window.append((item, None))
                else:
                    e, text = item
                    with self.s.phases.timed("driver submit"):
                        window.append((item, self.session.submit(Candidate(text, e.program, context=e))))
                    t_first = t_first or time.monotonic()
                while len(window) > runner.window or (window and window[0][1] is None):
                    if not self.take_next(window):
                        return self.take_finished(window)
            while window:
                if not self.take_next(window):
                    return self.take_finished(window)
        finally:
            for _, fut in window:
                if fut is not None:
                    fut.cancel()
            if t_first is not None:
                self.s.judge_seconds += time.monotonic() - t_first

    def take_next(self, window: deque) -> bool:
        """The window's first item taken, waiting for it at most until the deadline (a program
        that hangs until its timeout does not hold the campaign past its time); False once the
        time is up."""
        interrupt.check()   # a Ctrl-C whose raise a gc callback swallowed stops the campaign here
        item, fut = window[0]
        if fut is not None and self.deadline is not None:
            with self.s.phases.timed("driver wait"):
                wait([fut], timeout=max(0.0, self.deadline - time.monotonic()))
            if not fut.done():
                return False
        self.take(*window.popleft())
        return not self.out_of_time()

    def take_finished(self, window: deque) -> None:
        """At the deadline: the programs already judged are counted (in example order) rather
        than thrown away with the rest, which is cancelled; a chunk is done only if nothing
        before it is left unjudged."""
        complete = True
        while window:
            item, fut = window.popleft()
            if fut is None:
                if complete:
                    self.take(item, None)
            elif fut.done() and not fut.cancelled():
                self.take(item, fut)
            else:
                complete = False
                fut.cancel()

    def take(self, item, fut) -> None:
        """One item of the window: a judged program counted and recorded, or a chunk finished."""
        if fut is None:
            self.chunks_taken += 1
            if self.progress:
                self.progress.chunk_done(item[1])
            return
        e, text = item
        with self.s.phases.timed("driver wait"):
            j = fut.result().detail
        self.s.phases.merge(j.phases)
        with self.s.phases.timed("driver record"):
            self.count(e, text, j)
            if self.progress:
                self.progress.judged_one(e.id, text)
        self.status(self.s, self.t0)

    def count(self, e, text: str, j) -> None:
        """One judged program in the summary; its findings in the corpus."""
        s = self.s
        s.programs += 1
        s.statuses[j.outcome.status] += 1
        if j.skipped:
            s.skipped[j.skipped.split(":")[0]] += 1
        if not s.environment and j.outcome.environment:
            s.environment = j.outcome.environment
        for st in e.program.op_stmts():
            s.ops[st.op] += 1
        if getattr(e, "seed_file", None):
            s.seeds[e.seed_file] += 1
            took = j.phases.seconds("slot judge") if j.phases else 0.0
            s.seed_seconds[e.seed_file] += took
            if getattr(e, "large", False):
                s.large_seeds.add("trimmed" if seeded.TRIM in e.mutations else "as written", took)
        self.learn(e, j)
        for f in seeded.findings_of(e, j, self.opt.ctx.backend):
            if isinstance(e, seedqueue.DerivedExample):
                f.marks = {**f.marks, "ancestry": e.ancestry()}
            if self.record(f, text, e.id, j.outcome.environment):
                self.new_keys.append((f.key, f.flags))

    def learn(self, e, j) -> None:
        """The program's decisions into the campaign's coverage; with a queue, a program that ran
        and showed a new feature joins it (``seedqueue``)."""
        new = self.s.decisions.add(j.outcome.decisions)
        if isinstance(e, seedqueue.DerivedExample):
            self.s.derived += 1
        if self.queue is not None and new and j.outcome.ok:
            entry = self.queue.admit(e, len(new), self.chunks_taken)
            if entry is not None:
                self.s.queue.append(entry.to_json())

    def record(self, f, text: str, example_id: str, environment) -> bool:
        """A finding into its bucket, counted as new or known; True when it opened the bucket."""
        self.s.findings[f.found_as or f.kind] += 1
        d, is_new = self.store.add(f, text, example_id, self.opt.ctx.backend, environment,
                                   {"frontend": self.opt.frontend, "max_ops": self.opt.max_ops,
                                    **({"seeds": list(self.opt.seeds)} if self.opt.seeds else {})})
        if is_new:
            self.s.new.append(NewBucket(self.store.meta(f.key), d))
        else:
            self.s.known[os.path.basename(d)] += 1
        return is_new

    def hit_rows(self) -> list[dict]:
        """The bug list's rows (``buglist.row``) of the buckets this campaign hit: new ones first
        (in the order found), then known ones, the most often hit first."""
        new = [n.bucket.key for n in self.s.new]
        known = [m for m in self.store.buckets() if m.id in self.s.known and m.key not in new]
        known.sort(key=lambda m: -self.s.known[m.id])
        metas = [self.store.meta(k) or Bucket() for k in new] + known
        return [{k: v for k, v in r.items() if k != "_m"} | {"new": i < len(new)}
                for i, r in enumerate(buglist.rows_of(self.opt.corpus, metas, links_from=os.curdir))]

    def pending(self) -> list[str]:
        """Buckets to minimize: this campaign's new ones first, then any the corpus holds
        unminimized (a shard run with --no-minimize, an interrupted campaign)."""
        mine = dict(self.new_keys)
        return [k for k, _ in self.new_keys] + [b.key for b in self.store.buckets()
                                                if not b.minimized and not b.stale and b.key not in mine]

    def reducible(self, meta: Bucket) -> bool:
        """Whether this campaign reduces a pending bucket: a program of its own backend, not yet
        minimized (a generator bucket has no program: its chunk id replays it)."""
        return meta.kind != "generator" and (meta.backend or self.opt.ctx.backend) == self.opt.ctx.backend \
            and not meta.minimized

    def minimize_pending(self, runner) -> None:
        """Each pending bucket minimized once, while ``minimize_budget`` allows (checked as each
        starts), ``runner.reduce_slots`` at a time, on this campaign's backend (a bucket found on
        another is minimized there; a generator bucket has no program: its chunk id replays it).
        Each result is stored as it arrives."""
        opt, store = self.opt, self.store
        t_min = time.monotonic()
        running: dict[Future, str] = {}

        def finish(block: bool) -> None:
            done, _ = wait(list(running), return_when=FIRST_COMPLETED) if block else (list(running), None)
            for fut in done:
                key = running.pop(fut)
                try:
                    result = fut.result()
                except Exception as err:   # the runner gave up on it (every actor lost)
                    result = {"error": f"{type(err).__name__}: {err}"}
                bid = m.id if (m := store.meta(key)) is not None else key
                apply_reduction(store, key, result)
                self.s.minimized.append(str(key))
                self.status.note(f"fmin: {len(self.s.minimized)} of {len(todo)} done: {filed_words(bid, result)}")
                for n in self.s.new:
                    if n.bucket.key == key:   # the bucket as it is now (re-keyed, maybe merged, once minimized)
                        n.bucket, n.dir = _filed(n.bucket, store.meta(key)), store.dir(key)

        todo = [key for key in self.pending() if self.reducible(store.meta(key) or Bucket())]
        try:
            for n, key in enumerate(todo, 1):
                interrupt.check()
                while len(running) >= max(1, runner.reduce_slots):
                    finish(block=True)
                if opt.minimize_budget is not None and time.monotonic() - t_min >= opt.minimize_budget:
                    self.status.note(f"fmin: --minimize-budget spent: {len(todo) - n + 1} bucket(s) left unreduced "
                                     "(a later campaign on this corpus reduces them)")
                    break
                meta = store.meta(key) or Bucket()
                if not self.reducible(meta):   # merged since into a minimized bucket
                    continue
                self.status.note(f"fmin: reducing bucket {n} of {len(todo)}: {meta.id} ({meta.kind}), "
                                 "then filing it (its repro.min.py run standalone)")
                running[runner.reduce(key, meta, store.outcome(key), store.dir(key))] = key
            while running:
                finish(block=True)
        finally:
            for fut in running:
                fut.cancel()


def _filed(opened: Bucket, now: Bucket | None) -> Bucket:
    """A new bucket's record as opened, with what minimizing and filing it recorded since (its
    key and id too: a minimized bucket may be re-keyed); its counts stay the campaign's."""
    if now is None:
        return opened
    return replace(opened, minimized=now.minimized, reduction=now.reduction or opened.reduction, id=now.id,
                   key=now.key, attachment=now.attachment or opened.attachment, standalone=now.standalone or opened.standalone,
                   stale=now.stale or opened.stale)


def filed_words(bucket: str, result: dict) -> str:
    """One bucket's reduction and filing (``reduce_bucket``'s result), in a progress line: how
    small it got, and whether its repro.min.py showed the finding when run standalone."""
    if result.get("error") or result.get("stale"):
        return f"{bucket}: not reduced ({result.get('error') or result.get('stale')})"[:300]
    red = Reduction.from_json(result.get("minimized") or {})
    sa = StandaloneRun.from_json(result["standalone"]) if result.get("standalone") else None
    alone = ("not run standalone" if sa is None or not sa.ran else "reproduces standalone" if sa.reproduced else
             f"does not reproduce standalone ({sa.why})")
    size = f"ops {red.ops_before} -> {red.ops_after}" if red.ops_before is not None else "reduced"
    return f"{bucket}: {size}, {alone}"[:300]


def program_chunk(opt: CampaignOptions, k: int):
    """Chunk ``k`` of the campaign's programs: generated, or with ``--seeds`` mutated seeds."""
    if opt.seeds:
        return seeded.chunk(opt.seed, k, opt.seeds, frontend=opt.frontend)
    return generate.chunk(opt.seed, k, frontend=opt.frontend, max_ops=opt.max_ops)


def _script_path(workdir: str, example_id: str) -> str:
    return os.path.join(workdir, f"fuzz_{example_id.replace('.', '_')}.py")


def write_reports(s: Summary, opt: CampaignOptions) -> None:
    """The summary as JSON (``--summary``) and JUnit XML (``--junit``), where asked for."""
    if opt.summary:
        with open(opt.summary, "w", encoding="utf-8") as f:
            json.dump(s.to_json(), f, indent=1, default=str)
    if opt.junit:
        write_junit(s, opt.junit)


def generator_finding(err: Exception, seed: int, k: int):
    """A chunk the strategies could not build: bucketed by exception type and its message with
    numbers masked (the same generator bug on other shapes is one bucket)."""
    import re
    from ..store.finding import Finding
    from ..store.key import GENERATOR, BucketKey
    msg = re.sub(r"\d+", "N", str(err).splitlines()[0] if str(err) else "")[:160]
    return Finding("generator", "fmin", BucketKey(GENERATOR, "fmin", cause=f"{type(err).__name__}: {msg}"),
                   f"chunk {k} of seed {seed} raised {type(err).__name__}: {str(err)[:300]}", {})


# ---------------------------------------------------------------- the units of work (run where the pools are)
def judge_example(e, text: str, path: str, pool, ref, opt: CampaignOptions):
    """Every oracle on one generated example (``oracles.run_oracles``), with its own metamorphic seed;
    where its time went (``Judged.phases``: each run, each oracle, the whole) comes back with it."""
    rec = Phases()
    with recording(rec), rec.timed("slot judge"):
        j = run_oracles(e.program, text, path, pool, ref, backend=opt.ctx.backend, oracles=opt.oracles, seed=opt.ctx.seed,
                  example_seed=generate.example_seed(e.id))
    j.phases = rec
    return j


def reduce_bucket(original: str, out: str, meta: Bucket, outcome: dict | None, opt: CampaignOptions, pool,
                  ref) -> dict:
    """Reduce a bucket's program (``original``, a file) into ``out`` under the bucket's own
    property, on warm pools. Returns what the corpus should record: ``{"minimized": summary}``,
    ``{"stale": reason, "environment": ...}`` (the original no longer shows it) or
    ``{"error": ...}`` (a reduction that breaks must not lose the campaign's other findings)."""
    from ...reduce.reduction import PropertyDoesNotHold, ReduceOptions, reduce_script
    # the corpus travels: its reports name no directory of this machine (``--corpus /tmp/x`` -> ``x``)
    ctx = opt.ctx.replace(quiet=True, command=local_paths(opt.ctx.command) if opt.ctx.command else None)
    ropt = ReduceOptions(out=out, replays=2, max_seconds=opt.minimize_seconds, say_how_to_see=False)
    try:
        given = {name: p for name, p in ((ctx.backend, pool), ("reference", ref)) if p is not None}
        rep = reduce_script(original, bucket_property(meta, outcome), ctx, ropt, pools=given)
        minimized_outcome(out, pool, ctx)   # the reduced script's own run, before filing makes the attachment
        result = {"minimized": {k: rep.get(k) for k in ("ops_before", "ops_after", "inputs_before", "inputs_after",
                                                        "oracle_calls", "seconds", "property", "interrupted")}}
        return {**result, **file_bucket_dir(out, meta, outcome, ctx, pool, ref)}
    except PropertyDoesNotHold as e:
        return {"stale": f"not reproduced when replayed: {e}", "environment": getattr(pool, "environment", None)}
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"}


def minimized_outcome(out: str, pool, ctx: RunContext) -> None:
    """The minimal repro's own run, as ``outcome.min.json`` beside it: what the attached script
    does as written, and what the bucket is re-keyed from (``judging.today.rekey_minimized``)."""
    path = os.path.join(out, "repro.min.py")
    if pool is None or not os.path.exists(path):
        return
    with open(path, encoding="utf-8") as f:
        o = pool.run(ctx.request(f.read(), path))
    with open(os.path.join(out, "outcome.min.json"), "w", encoding="utf-8") as f:
        json.dump(o.to_json(), f, indent=1, default=str)


def apply_reduction(store: Store, key: str, result: dict) -> None:
    """What ``reduce_bucket`` returned, into the corpus (the files a remote reduction wrote come
    along in ``result["files"]``, relative path -> text); a minimized bucket is then re-keyed
    from its minimal repro (and merged with a bucket it turns out equal to)."""
    d = store.dir(key)
    for rel, text in (result.get("files") or {}).items():
        path = os.path.join(d, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
    if "stale" in result:
        store.mark_stale(key, result["stale"], result.get("environment"))
    elif "error" in result:
        store.mark_minimized(key, {"error": result["error"]})
    else:
        store.mark_minimized(key, result["minimized"])
    if "standalone" in result:
        store.mark_filed(key, result.get("attachment"), result["standalone"])
    if "minimized" in result and "stale" not in result and "error" not in result:
        rekey_minimized(store, key)   # last: it may move the bucket to another key


def recheck_bucket(job: dict, opt: CampaignOptions, pool, ref) -> dict:
    """One bucket's script (``job``: ``text``, ``path``, ``prop``, ``kind``, ``meta``, ``outcome``,
    ``filed``: the stored attachment and its expectation, if any) replayed under its property,
    once more if it does not show it; a failure whose program the reference now rejects too is no
    longer a finding. A reduced script that reproduces is filed again (its attachment rebuilt from
    this replay, and run standalone); one that does not keeps its attachment, which is run
    standalone all the same. Returns ``reproduces``, ``reason``, ``environment`` and ``filed`` or
    ``standalone``."""
    from ...oracle.property import Mismatch, evaluate
    text, path, prop = job["text"], job["path"], job["prop"]
    pools = Pools.of(pool, reference=ref)
    v = evaluate(prop, text, path, pools, seed=opt.ctx.seed)
    if not v.holds:
        v = evaluate(prop, text, path, pools, seed=opt.ctx.seed)
    holds, reason = v.holds, v.reason
    ev = v.get(Mismatch)
    undefined = getattr(getattr(ev, "reference", None), "undefined", None)
    if holds and job["kind"] == "failure" and ref is not pool:
        r = ref.run(opt.ctx.request(text, path))
        undefined = r.undefined
        if not r.ok and not r.undefined:   # a rule the reference has learnt since: the program was never valid
            holds, reason = False, (f"no longer a finding: the reference rejects the program too "
                                    f"(`{r.signature}`), so it is not a valid program")
    out = {"reproduces": holds, "reason": reason, "environment": getattr(pool, "environment", None),
           "undefined": undefined or None}
    try:
        out.update(refile(job, v if holds else None, opt.ctx, pool, ref))
    except Exception as e:   # the replay's verdict stands whatever happens to the attachment
        out["standalone"] = failed(e)
    return out


def recheck(opt: CampaignOptions, runner: Runner | None = None) -> list[dict]:
    """Replay every bucket of the context's backend in the corpus under its property — its minimal
    repro when it has one, else its original — and record whether it still reproduces (after an
    nvFuser upgrade: which findings are fixed; after a change to fmin's reference: which were
    fmin's). A replay that does not show the property is run once more before the bucket is
    called stale. ``runner``: where the replays run (default: this machine's pools); the corpus
    is read and written here. Returns one row per bucket rechecked, in corpus order."""
    store = Store(opt.corpus)
    # a bucket found on another device (Triton on a GPU vs C++ on the CPU) is another compiler
    todo = [m for m in store.buckets() if m.backend == opt.ctx.backend and m.kind != "generator"
            and (m.environment or {}).get("device", opt.ctx.device) == opt.ctx.device]
    rows: list[dict] = []
    if not todo:
        buglist.write(opt.corpus)
        return rows
    status = ProgressLine(opt.ctx.quiet, every=5)

    def job(m: Bucket) -> dict:
        d = store.dir(m.key)
        name = reduced_script(d)
        path = os.path.join(d, name)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        filed = None
        if name == "reduced.py" and m.attachment is not None and m.attachment.expects != "none":
            with open(os.path.join(d, "repro.min.py"), encoding="utf-8") as f:
                filed = {"text": f.read(), "expect": m.attachment.expect}
        outcome = store.outcome(m.key)
        return {"id": m.id, "key": str(m.key), "script": name, "text": text, "path": path, "kind": m.kind,
                "prop": bucket_property(m, outcome), "meta": m, "outcome": outcome, "filed": filed}

    runner = runner if runner is not None else LocalRunner(opt)
    with runner:
        jobs = [job(m) for m in todo]
        session = Session(submit=lambda c: chain(runner.recheck(c.context),
                                                 lambda r: Verdict(r["reproduces"], r["reason"], detail=r)))
        futs = [None if j["prop"] is None else
                session.submit(Candidate(j["text"] + f"\n# {json.dumps(j['prop'].to_json())}", context=j))
                for j in jobs]
        for j, fut in zip(jobs, futs):
            row = {"id": j["id"], "key": j["key"], "script": j["script"]}
            if fut is None:
                row.update(reproduces=None, reason="no property recorded for this bucket")
            else:
                r = fut.result().detail
                store.mark_recheck(j["key"], r["reproduces"], r["reason"], j["script"], r["environment"],
                                   r.get("undefined"))
                if r.get("filed"):
                    write_filed(store.dir(j["key"]), r["filed"])
                    store.mark_filed(j["key"], r["filed"]["attachment"], r["filed"]["standalone"])
                elif r.get("standalone"):
                    store.mark_filed(j["key"], None, r["standalone"])
                ran = (r.get("filed") or r).get("standalone")
                sa = StandaloneRun.from_json(ran) if ran else None
                row.update(reproduces=r["reproduces"], reason=r["reason"], standalone=sa.reproduced if sa else None,
                           standalone_why=sa.why if sa else None)
            rows.append(row)
            status.show(f"rechecked {len(rows)}/{len(todo)}  stale {sum(x['reproduces'] is False for x in rows)}")
    status.show(f"rechecked {len(rows)}/{len(todo)}  stale {sum(x['reproduces'] is False for x in rows)}", True)
    buglist.write(opt.corpus)
    return rows


def summary_lines(s: Summary) -> list[str]:
    got, of = s.coverage()
    rows = [("backend", f"{s.backend} ({s.device})"), ("seed / shard", f"{s.seed} / {s.shard}"),
            ("programs run", str(s.programs)), ("duplicates skipped", str(s.duplicates)),
            ("wall seconds", f"{s.seconds:.1f} (start-up {s.startup_seconds:.1f})"),
            ("programs per second", f"{s.per_second:.2f}"),
            ("statuses", ", ".join(f"{k} {v}" for k, v in sorted(s.statuses.items())) or "-"),
            ("not judged", ", ".join(f"{k} {v}" for k, v in sorted(s.skipped.items())) or "-"),
            ("op coverage", f"{got}/{of} generated ops exercised"),
            ("findings", ", ".join(f"{k} {v}" for k, v in sorted(s.findings.items())) or "none"),
            ("new buckets", str(len(s.new))), ("known buckets hit", str(len(s.known))),
            ("buckets minimized", str(len(s.minimized))),
            ("decisions covered", s.decisions.words()),
            ("slots / workers started", f"{s.slots} / " + (", ".join(f"{k} {v}" for k, v in s.workers_started().items())
                                                          or "-")),
            ("where the time went", phase_line(s.phases, s.programs) or "-")]
    if s.resumed:
        rows.insert(3, ("judged before (resumed)", str(s.resumed)))
    if s.interrupted:
        rows.insert(0, ("interrupted", "yes (Ctrl-C or SIGTERM): the figures of what it did"))
    if s.ran_on:
        rows.insert(1, ("ran on", s.ran_on))
    rows += seeded.summary_rows(s.seeds, s.seed_seconds, s.large_seeds)
    if s.queue or s.derived:
        rows.append(("feedback queue", f"{len(s.queue)} entries; {s.derived} programs derived from them"))
    filed = buglist.standalone_tally([n.bucket for n in s.new])
    if filed:
        rows.append(("new buckets run standalone", filed))
    w = max(len(a) for a, _ in rows)
    out = ["| " + "what".ljust(w) + " | value |", "|" + "-" * (w + 2) + "|-------|"]
    out += [f"| {a.ljust(w)} | {b} |" for a, b in rows]
    if s.hit:   # the bug list's rows (``buglist``) of what this campaign found
        out += ["", f"Buckets hit ({len(s.hit)}; new first):", ""]
        out += buglist.table([{**r, "bucket": ("new " if r.get("new") else "") + r["bucket"]} for r in s.hit])
    for n in s.new:
        sa = n.bucket.standalone
        if sa is not None and sa.ran and not sa.reproduced:
            out.append(f"NOT REPRODUCED STANDALONE: {n.bucket.id} ({n.bucket.kind}): {sa.why}  ({n.dir})")
    return out


#: the phases ``phase_line`` shows, in a campaign's order (``Phases`` names)
_SHOWN = ("driver generate", "driver dedup", "driver wait", "driver record", "slot judge", "oracle run",
          "oracle differential", "oracle order", "oracle layout")


def phase_line(p: Phases, programs: int) -> str:
    """The summary's one line of ``Summary.phases``: seconds per program of the driver's serial
    parts and of a slot's judgement, then each backend's compile-and-run (``execute``) seconds and
    runs per program — with the slots' count, the floor a campaign's rate cannot beat."""
    if not programs:
        return ""
    parts = [f"{k} {p.seconds(k) / programs * 1000:.0f} ms" for k in _SHOWN if p.count(k)]
    parts += [f"{k} {p.seconds(k) / max(1, p.count(k)) * 1000:.0f} ms x {p.count(k) / programs:.1f}"
              for k in sorted(p.data) if k.startswith("execute ")]
    return "per program: " + ", ".join(parts)


def write_junit(s: Summary, path: str) -> None:
    """One test case per bucket hit (a new bucket fails), plus one for the campaign itself."""
    cases = []
    got, of = s.coverage()
    cases.append(f'  <testcase classname="fmin.fuzz" name="campaign {s.backend} seed {s.seed} shard {s.shard}" '
                 f'time="{s.seconds:.1f}"><system-out>{escape(f"{s.programs} programs, {got}/{of} ops")}'
                 f'</system-out></testcase>')
    for n in s.new:
        m, sa = n.bucket, n.bucket.standalone
        alone = ("" if sa is None else "; reproduces standalone" if sa.reproduced else
                 f"; does NOT reproduce standalone: {sa.why}" if sa.ran else f"; not run standalone: {sa.why}")
        msg = f"new {m.kind} finding ({m.owner}): {m.key}{alone}"
        cases.append(f'  <testcase classname="fmin.fuzz.{escape(m.kind)}" name={quoteattr(m.id)}>'
                     f'<failure message={quoteattr(msg)}>{escape(m.words)}\n{escape(n.dir)}</failure>'
                     f'</testcase>')
    for bid, n in sorted(s.known.items()):
        cases.append(f'  <testcase classname="fmin.fuzz.known" name={quoteattr(bid)}>'
                     f'<system-out>{n} occurrence(s) of a known bucket</system-out></testcase>')
    failures = len(s.new)
    xml = (f'<?xml version="1.0" encoding="utf-8"?>\n<testsuite name="fmin fuzz" tests="{len(cases)}" '
           f'failures="{failures}" errors="0" time="{s.seconds:.1f}">\n' + "\n".join(cases) + "\n</testsuite>\n")
    with open(path, "w", encoding="utf-8") as f:
        f.write(xml)
