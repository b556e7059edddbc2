"""``fmin fuzz``: the campaign loop. Generate programs chunk by chunk (``generate``), judge each
with the oracles on a runner, bucket the findings into the corpus (``findings``), then minimize
each new bucket with the reducer.

Programs are judged ``jobs`` at a time, but their results are taken in example order, so which
example opens a bucket does not depend on timing. The time budget (``--time``) bounds generation
and judging; minimizing the new buckets comes after, each bounded by ``minimize_seconds``.

Where programs are judged and buckets reduced is a *runner*: ``local.LocalRunner`` (this machine's
warm pools) or ``cluster.RayRunner`` (one actor per worker slot on a Ray cluster). Generation, the
order results are taken in, bucketing, the corpus and the progress record (``store.progress``,
for resuming a killed campaign) are this module's, whichever runner it is; the reports are
``summary``'s and ``--recheck`` is ``recheck``'s.
"""
from __future__ import annotations

import os
import time
from collections import deque
from concurrent.futures import FIRST_COMPLETED, Future, wait
from dataclasses import replace

from ... import interrupt
from ...oracle.runners import Runner
from ...oracle.session import Candidate, Session, Verdict, chain
from ...program import to_source
from ...progress import ProgressLine
from ..buglist import page as buglist
from ..sources import generate, seeded, seedqueue
from ..judging.today import rekey_minimized
from ..store import learned
from ..store.progress import Progress
from ..store.store import Store
from ..store.record import Bucket, Reduction, StandaloneRun
from .local import LocalRunner
from .options import CampaignOptions
from .summary import NewBucket, Summary, write_reports


class Status(ProgressLine):
    """The campaign's progress: programs, rate, op coverage, findings and buckets."""

    def __call__(self, s: Summary, t0: float, final: bool = False) -> None:
        got, of = s.coverage()
        el = time.monotonic() - t0
        self.show(f"[{el:6.0f}s] programs {s.programs}  {s.programs / max(el, 1e-9):.2f}/s  ops {got}/{of}  "
                  f"findings {sum(s.findings.values())}  new buckets {len(s.new)}  known {len(s.known)}", final)


def _chunks(opt: CampaignOptions):
    i, n = opt.shard
    k = i
    while True:
        yield k
        k += n


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
    run.save_learned()
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
        if self.queue is not None:
            self.resume_learned()
        self.window: deque = deque()   # the programs in flight (``generate_and_judge``)
        self.chunks_taken = 0          # chunk markers taken: the position of the chunk being taken

    def resume_learned(self) -> None:
        """A feedback campaign starts where the earlier ones on its corpus (or ``feedback_from``)
        stopped: their decisions are not new to it, their queue entries are its first."""
        state = learned.load(self.opt.feedback_from or self.opt.corpus)
        self.s.decisions.known = frozenset(state["features"])
        self.s.carried = self.queue.carry(state["queue"])

    def save_learned(self) -> None:
        """What this feedback campaign learned, added to its corpus's state (``store.learned``)."""
        if self.queue is None:
            return
        d = self.s.decisions
        learned.add(self.opt.corpus, {"features": dict(d.features), "signatures": dict(d.signatures),
                                      "queue": [x.state() for x in self.queue.entries if not x.carried]})

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
        return seeded.chunk(opt.seed, k, opt.seeds, frontend=opt.frontend, capability=opt.capability)
    return generate.chunk(opt.seed, k, frontend=opt.frontend, max_ops=opt.max_ops)


def generator_finding(err: Exception, seed: int, k: int):
    """A chunk the strategies could not build: bucketed by exception type and its message with
    numbers masked (the same generator bug on other shapes is one bucket)."""
    import re
    from ..store.finding import Finding
    from ..store.key import GENERATOR, BucketKey
    msg = re.sub(r"\d+", "N", str(err).splitlines()[0] if str(err) else "")[:160]
    return Finding("generator", "fmin", BucketKey(GENERATOR, "fmin", cause=f"{type(err).__name__}: {msg}"),
                   f"chunk {k} of seed {seed} raised {type(err).__name__}: {str(err)[:300]}", {})


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
