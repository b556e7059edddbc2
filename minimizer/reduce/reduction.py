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
from ..outdir import check_out_dir, claim_out_dir, release_out_dir
from ..oracle.context import RunContext
from ..oracle.original import Original
from ..oracle.property import Property
from ..oracle.session import NothingToReduce, PropertyDoesNotHold, PropertyOracle, Refused, Session
from ..program import edits, validity
from ..program.reader import parse
from ..progress import ProgressLine
from .driver import Reducer, resume_point, stats_table, write_state
from .passes import passes_for

__all__ = ["NothingToReduce", "ReduceOptions", "PropertyDoesNotHold", "Refused", "claim_out_dir", "reduce_script"]


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
    #: say in the header and report.md how to see the result where ``python repro.min.py`` cannot
    #: (``Backend.see_command``); a fuzz bucket's attachment says how to run it in its own words
    say_how_to_see: bool = True


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
    """The workers that fit in memory (``RunContext.fit_memory``); raises Refused (exit 2) when
    not even one run does: nothing runs, nothing is written."""
    fit = ctx.fit_memory([(original.path, original.program, original.info)], prop_flags)
    if fit.refused:
        raise Refused("environment", fit.refused[original.path])
    return fit.ctx.jobs


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
    jobs = _fit_memory(original, prop_flags, ctx) if not pools else ctx.jobs   # (a refusal starts nothing)
    if not pools and (prop_flags is None or prop_flags.needs_outcome):   # (a --test alone runs no worker)
        status.starting(get_backend(ctx.backend), ctx.device, jobs, "to run the original")
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
        finally:   # the lock goes whatever stops the run (a second Ctrl-C while the judges finish)
            try:
                oracle.close()
            finally:
                if lock is not None:
                    release_out_dir(lock)


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
        self.calls_before = 0        # oracle calls of the runs this one resumes
        self._machine: dict | None = None

    def _session(self) -> Session:
        lenient = self.oracle.static_error is not None
        # a candidate breaks no validity rule its original keeps (``validity.enforced_for``): a
        # valid finding never reduces to an invalid program, and a rule the user's own script
        # already breaks never stands in the way of reducing it
        rules = None if lenient else validity.enforced_for(self.original.program, self.original.info)
        return Session(self.oracle.judge, prepare=edits.dce, static="partial" if lenient else "strict",
                       static_filter=self.oracle.static_filter, also_dir=os.path.join(self.out_dir, "also-interesting"),
                       rules=rules)

    def _start(self, session: Session):
        """Where the reducer starts: an earlier run's best-so-far of the same original and
        property (with its verdict cache), else the original with its static facts."""
        if self.opt.resume:
            prev = resume_point(self.out_dir, self.original.text, self.prop_key)
            if prev is not None:
                text, self.calls_before = prev
                self.resumed = True
                session.load(self.cache_path)
                # the best-so-far was written with its confirming run's header; the candidates
                # judged (and cached) had the original's leading comments: put them back
                text = reports.split_header(self.original.run_text)[0] + reports.split_header(text)[1]
                return parse(text, os.path.join(self.out_dir, "repro.min.py")), None
        return self.original.program, self.original.info

    def reduce(self):
        session = self._session()
        start, info = self._start(session)

        def progress(s: dict) -> None:
            self.status(s)
            if s.get("accepted"):
                session.save(self.cache_path)
                self._state(s["tests"], done=False)

        min_extent = 2 if self.oracle.guards_degenerate else 1
        reducer = Reducer(start, session, jobs=self.jobs, out_dir=self.out_dir, on_progress=progress,
                          max_tests=self.opt.max_tests, max_seconds=self.opt.max_seconds,
                          passes=passes_for(min_extent=min_extent), lenient=self.oracle.static_error is not None,
                          info=info, header=lambda v: self.header(v.outcome if v is not None else None),
                          origin=(edits.size(self.original.program), len(self.original.run_text)))
        reducer.save_best()   # the start too: with this run's header (a resumed one's was the last run's)
        self._state(0, done=False)
        result = reducer.run()
        self.status.done()
        session.save(self.cache_path)
        self._state(result.tests, done=not result.interrupted)
        return result

    def _state(self, tests: int, done: bool) -> None:
        """The resume state, counting the oracle calls of the runs resumed too."""
        write_state(self.out_dir, self.original.text, self.prop_key, tests=self.calls_before + tests, done=done)

    def environment(self, outcome) -> dict:
        """The environment of the run that confirmed a result: that run's own record (a
        worker's), else the original's first run (a verdict from a resumed cache was made by
        this reduction's workers, on this machine), else — a ``--test`` command alone confirmed
        it, and no worker ran — this machine's record (``oracle.machine``)."""
        src = outcome if outcome is not None and outcome.environment else self.base.first
        if src is not None and src.environment:
            env = dict(src.environment)
        else:
            if self._machine is None:
                from ..oracle.machine import this_machine
                self._machine = this_machine(self.ctx.device)
            env = dict(self._machine)
        if self.ctx.options.inductor_config:
            env["inductor_config"] = list(self.ctx.options.inductor_config)
        return env

    def header(self, outcome) -> str:
        """The header of a result confirmed by the run of ``outcome`` (see ``environment``)."""
        return reports.repro_header(self.environment(outcome), self.ctx.command, self.base.prop.describe(),
                                    see=self.see())

    def see(self) -> str | None:
        """How to see the result where ``python repro.min.py`` cannot (``Backend.see_command``)."""
        if not self.opt.say_how_to_see:
            return None
        return get_backend(self.ctx.backend).see_command(os.path.join(self.out_dir, "repro.min.py"),
                                                         self.ctx.options.inductor_config)

    def report(self, result, finals: list, wall_seconds: float) -> dict:
        base, prop = self.base, self.base.prop
        after = finals[0].outcome if finals else None
        # the result with the header of the run that confirmed it: the final replay, or (an
        # interrupted run) the run that accepted the best-so-far
        confirming = after if finals else (result.verdict.outcome if result.verdict is not None else None)
        minimal = reports.with_header(result.text, self.header(confirming))
        judged = finals[0].to_json() if finals else {}
        return reports.build(
            script=self._script_name(), sizes_before=edits.size(self.original.program), sizes_after=edits.size(result.program),
            bytes_before=len(self.original.text), minimal_script=minimal, bytes_after=len(result.text),
            prop=prop.describe(), backend=self.ctx.backend, backend_title=get_backend(self.ctx.backend).facts.title,
            before=base.first, after=after,
            oracle_calls=self.calls_before + result.tests, calls_before_resume=self.calls_before,
            cache_hits=result.cache_hits, seconds=result.seconds,
            interrupted=result.interrupted, passes=stats_table(result.stats),
            also_interesting=[os.path.relpath(p, self.out_dir) for p in result.also_interesting],   # beside the report
            replays={"original": f"{base.held}/{len(base.replays)}",
                     **({"minimized": f"{sum(v.holds for v in finals)}/{len(finals)}"} if finals else {}),
                     **({"resumed": True} if self.resumed else {})},
            environment=self.environment(confirming),
            flaky=base.flaky, static_error=self.oracle.static_error,
            # the result re-run: a minimized script that no longer shows the property (a candidate
            # that held once by accident, a machine problem) must not pass for a result
            verified=None if not finals else any(v.holds for v in finals),
            original_header=reports.original_header(self.original.text),
            mismatch=judged.get("mismatch"), property_reason=finals[0].reason if finals else None,
            wall_seconds=wall_seconds, command=self.ctx.command,
            upgraded=UPGRADED if self.original.translated_to else None, see=self.see())

    def _script_name(self) -> str:
        """The original as the report names it: relative to the report's directory when it lies
        inside it (a fuzz bucket's ``original.py``), so a corpus moved to another machine names
        no directory of this one; as given otherwise (the user's own path)."""
        rel = os.path.relpath(os.path.abspath(self.path), os.path.abspath(self.out_dir))
        return self.path if rel.startswith(os.pardir) else rel

    def write(self, result, rep: dict) -> None:
        with open(os.path.join(self.out_dir, "repro.min.py"), "w", encoding="utf-8") as f:
            f.write(rep["minimal_script"])
        with open(os.path.join(self.out_dir, "report.json"), "w") as f:
            json.dump(rep, f, indent=1)
        with open(os.path.join(self.out_dir, "report.md"), "w") as f:
            f.write(reports.to_markdown(rep))
