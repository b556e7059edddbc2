"""One reduction from a script on disk to ``repro.min.py`` + reports: the glue between the reader,
the oracle (pools, property, session) and the driver.

Order of events, and why:
1. read the script (a script fmin cannot read stops here, exit 2);
2. run the original ``replays`` times (``PropertyOracle.establish``): the property is derived
   from the first run unless flags give one, and the replays tell whether the behaviour is
   deterministic (a flaky property is reported with its rate, and every candidate must then hold
   twice in a row);
3. resume from an earlier run's best-so-far, and its verdict cache, if one exists for the same
   original and property;
4. reduce; every accepted step rewrites ``repro.min.py``; the cache is saved with the state;
5. re-verify the result ``replays`` times, write ``report.md`` and ``report.json``.
The input file is never written; everything goes to the output directory.
"""
from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass

from .. import report as reports
from ..backends import get as get_backend
from ..oracle.context import RunContext
from ..oracle.original import Original
from ..oracle.property import Property
from ..oracle.session import NothingToReduce, PropertyDoesNotHold, PropertyOracle, Refused, Session
from ..program import edits
from ..program.reader import parse
from ..progress import ProgressLine
from .driver import Reducer, resume_point, stats_table, write_state
from .passes import passes_for

__all__ = ["NothingToReduce", "ReduceOptions", "PropertyDoesNotHold", "Refused", "reduce_script"]


@dataclass
class ReduceOptions:
    """What is a reduction's own; where and how its scripts run is the ``RunContext``."""
    out: str | None = None
    replays: int = 3
    max_tests: int | None = None
    max_seconds: float | None = None
    resume: bool = True
    allow_degenerate: bool = False
    keep_frontend: bool = False       # never re-emit a legacy script for nvfuser_direct


def check_out_dir(out_dir: str) -> None:
    """Before anything runs: is ``out_dir`` usable (a directory, or creatable)? Raises ValueError."""
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise ValueError(f"--out {out_dir}: exists and is not a directory")
    parent = out_dir
    while parent and not os.path.exists(parent):
        parent = os.path.dirname(parent.rstrip(os.sep)) or "."
    if not os.access(parent or ".", os.W_OK):
        raise ValueError(f"--out {out_dir}: cannot write there (no permission in {parent})")


def claim_out_dir(out_dir: str):
    """Make ``out_dir`` (or check it), and hold its lock for the run: two reductions writing one
    directory would overwrite each other's best-so-far. Raises ValueError with what is wrong
    (a file there, no permission, another run holding it)."""
    import fcntl
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise ValueError(f"--out {out_dir}: exists and is not a directory")
    try:
        os.makedirs(out_dir, exist_ok=True)
        f = open(os.path.join(out_dir, ".fmin.lock"), "a+")
    except OSError as e:
        raise ValueError(f"--out {out_dir}: cannot write there ({e.strerror or e})") from None
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        f.seek(0)
        who = f.read().strip()
        f.close()
        raise ValueError(f"--out {out_dir}: another fmin run is writing there" + (f" (pid {who})" if who else "")
                         + "; wait for it or choose another --out") from None
    f.seek(0)
    f.truncate()
    f.write(str(os.getpid()))
    f.flush()
    return f


class StatusLine(ProgressLine):
    """The reducer's progress: pass, ops/inputs/outputs/bytes now vs at start, tests, cache hits."""

    def __call__(self, s: dict) -> None:
        o0, i0, x0 = s["start"]
        self.show(f"[{s['elapsed']:6.0f}s] {s['pass']:<22} ops {s['ops']}/{o0}  inputs {s['inputs']}/{i0}  "
                  f"outputs {s['outputs']}/{x0}  bytes {s['bytes']}/{s['start_bytes']}  "
                  f"tests {s['tests']}  cache {s['cache_hits']}")


UPGRADED = ("the script uses the legacy `nvfuser` frontend, which this nvFuser no longer has; fmin reduced its "
            "`fmin upgrade` translation to `nvfuser_direct`")


def _fit_memory(original: Original, prop_flags: Property | None, ctx: RunContext) -> int:
    """The workers that fit in memory; raises Refused (exit 2) when not even one run does: a
    script with gigabyte inputs is refused with a sentence before anything runs, instead of
    getting the workers SIGKILLed."""
    p = ctx.memory_plan(original.program, prop_flags, info=original.info)
    if p.refusal:
        raise Refused("environment", p.refusal)
    if p.note and not ctx.quiet:
        import sys
        print(f"fmin: {p.note}", file=sys.stderr)
    return p.jobs


def reduce_script(path: str, prop_flags: Property | None, ctx: RunContext, opt: ReduceOptions | None = None, *,
                  pools: dict | None = None, original: Original | None = None) -> dict:
    """Reduce ``path`` under ``prop_flags`` (None: the default property, from the original's
    run) where ``ctx`` says scripts run. ``pools``: warm pools by backend name to use instead of
    starting workers (the fuzzer minimizes findings with the pools it fuzzes with; they are left
    open). ``original``: the script already read (``Original.read``), so that nothing reads,
    translates or checks it twice."""
    opt = opt or ReduceOptions()
    t_start = time.perf_counter()
    original = original or Original.read(path, backend=ctx.backend, keep_frontend=opt.keep_frontend)
    out_dir = opt.out or os.path.splitext(path)[0] + ".fmin"
    if os.path.abspath(out_dir) == os.path.abspath(path):
        raise ValueError("the output directory cannot be the script itself")
    check_out_dir(out_dir)
    status = StatusLine(ctx.quiet)
    if not pools and (prop_flags is None or prop_flags.needs_outcome):   # (a --test alone runs no worker)
        status.starting(get_backend(ctx.backend), ctx.device, ctx.jobs, "to run the original")
    jobs = _fit_memory(original, prop_flags, ctx) if not pools else ctx.jobs
    lock = None
    with ctx.pools(jobs=jobs, given=pools) as all_pools:
        oracle = PropertyOracle(prop_flags, all_pools, os.path.abspath(path), seed=ctx.seed,
                                allow_degenerate=opt.allow_degenerate)
        try:
            base = oracle.establish(original, opt.replays)
            # nothing is written before the original is known to be worth reducing: a refused
            # script (its own error, the machine's) leaves no trace in DIR
            lock = claim_out_dir(out_dir)
            run = _Run(path, original, base, oracle, ctx, opt, out_dir, jobs, status)
            result = run.reduce()
            finals = [] if result.interrupted else oracle.replay(result.text, opt.replays)
            rep = run.report(result, finals, wall_seconds=round(time.perf_counter() - t_start, 1))
            run.write(result, rep)
            rep["out_dir"] = out_dir
            return rep
        finally:
            oracle.close()
            if lock is not None:
                lock.close()


class _Run:
    """One reduction after its original is established: the session, resuming, the reducer,
    and what it writes (``repro.min.py`` with the confirming run's header, ``report.json`` and
    ``report.md``, built once from one dict)."""

    def __init__(self, path, original: Original, base, oracle: PropertyOracle, ctx: RunContext, opt: ReduceOptions,
                 out_dir: str, jobs: int, status: StatusLine):
        self.path, self.original, self.base, self.oracle = path, original, base, oracle
        self.ctx, self.opt, self.out_dir, self.jobs, self.status = ctx, opt, out_dir, jobs, status
        self.prop_key = json.dumps(base.prop.to_json(), sort_keys=True)
        self.cache_path = os.path.join(out_dir, "cache.json")
        self.resumed = False

    def _session(self) -> Session:
        lenient = self.oracle.static_error is not None
        return Session(self.oracle.judge, prepare=edits.dce, static="partial" if lenient else "strict",
                       static_filter=self.oracle.static_filter, also_dir=os.path.join(self.out_dir, "also-interesting"))

    def _start(self, session: Session):
        """Where the reducer starts: an earlier run's best-so-far of the same original and
        property (with its verdict cache), else the original with its static facts."""
        if self.opt.resume:
            prev = resume_point(self.out_dir, self.original.text, self.prop_key)
            if prev is not None:
                self.resumed = True
                session.load(self.cache_path)
                return parse(prev, os.path.join(self.out_dir, "repro.min.py")), None
        return self.original.program, self.original.info

    def reduce(self):
        session = self._session()
        start, info = self._start(session)

        def progress(s: dict) -> None:
            self.status(s)
            if s.get("accepted"):
                session.save(self.cache_path)

        min_extent = 2 if self.oracle.guards_degenerate else 1
        reducer = Reducer(start, session, jobs=self.jobs, out_dir=self.out_dir, on_progress=progress,
                          max_tests=self.opt.max_tests, max_seconds=self.opt.max_seconds,
                          passes=passes_for(min_extent=min_extent), lenient=self.oracle.static_error is not None,
                          info=info)
        if not self.resumed:
            reducer.save_best()
        write_state(self.out_dir, self.original.text, self.prop_key, tests=0, done=False)
        result = reducer.run()
        self.status.done()
        session.save(self.cache_path)
        write_state(self.out_dir, self.original.text, self.prop_key, tests=result.tests, done=not result.interrupted)
        return result

    def _environment(self, after) -> dict:
        first = self.base.first
        env = dict((after or first).environment if (after or first) is not None else {})
        if self.ctx.options.inductor_config:
            env["inductor_config"] = list(self.ctx.options.inductor_config)
        return env

    def report(self, result, finals: list, wall_seconds: float) -> dict:
        base, prop = self.base, self.base.prop
        after = finals[0].outcome if finals else None
        minimal = result.text
        if not result.interrupted:   # the confirmed result: a header that says where and how
            minimal = reports.with_header(result.text, reports.repro_header(self._environment(after),
                                                                            self.ctx.command, prop.describe()))
        judged = finals[0].to_json() if finals else {}
        return reports.build(
            script=self.path, sizes_before=edits.size(self.original.program), sizes_after=edits.size(result.program),
            bytes_before=len(self.original.text), minimal_script=minimal, bytes_after=len(result.text),
            prop=prop.describe(), backend=self.ctx.backend, backend_title=get_backend(self.ctx.backend).title,
            before=base.first, after=after,
            oracle_calls=result.tests, cache_hits=result.cache_hits, seconds=result.seconds,
            interrupted=result.interrupted, passes=stats_table(result.stats), also_interesting=result.also_interesting,
            replays={"original": f"{base.held}/{len(base.replays)}",
                     **({"minimized": f"{sum(v.holds for v in finals)}/{len(finals)}"} if finals else {}),
                     **({"resumed": True} if self.resumed else {})},
            environment=base.first.environment if base.first is not None else {},
            flaky=base.flaky, static_error=self.oracle.static_error,
            # the result re-run: a minimized script that no longer shows the property (a candidate
            # that held once by accident, a machine problem) must not pass for a result
            verified=None if not finals else any(v.holds for v in finals),
            original_header=reports.original_header(self.original.text),
            mismatch=judged.get("mismatch"), property_reason=finals[0].reason if finals else None,
            wall_seconds=wall_seconds, command=self.ctx.command,
            upgraded=UPGRADED if self.original.translated_to else None)

    def write(self, result, rep: dict) -> None:
        if not result.interrupted:
            with open(os.path.join(self.out_dir, "repro.min.py"), "w", encoding="utf-8") as f:
                f.write(rep["minimal_script"])
        with open(os.path.join(self.out_dir, "report.json"), "w") as f:
            json.dump(rep, f, indent=1)
        with open(os.path.join(self.out_dir, "report.md"), "w") as f:
            f.write(reports.to_markdown(rep))
