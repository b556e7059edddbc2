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
from typing import Callable

from .. import report as reports
from ..backends import RunOptions, get as get_backend
from ..oracle.pool import Pool, Pools
from ..oracle.property import Property
from ..oracle.session import NothingToReduce, PropertyDoesNotHold, PropertyOracle, Refused, Session
from ..program import edits
from ..program.reader import parse, parse_file
from ..progress import ProgressLine
from .driver import Reducer, resume_point, stats_table, write_state
from .passes import passes_for

__all__ = ["NothingToReduce", "Options", "PropertyDoesNotHold", "Refused", "reduce_script"]


@dataclass
class Options:
    backend: str = "reference"
    device: str = "cpu"
    jobs: int = 1
    out: str | None = None
    seed: int = 0
    replays: int = 3
    timeout: float = 600.0
    max_tests: int | None = None
    max_seconds: float | None = None
    resume: bool = True
    quiet: bool = False
    run_options: RunOptions = RunOptions()
    allow_degenerate: bool = False
    command: str | None = None        # the command line, for the minimized script's header
    keep_frontend: bool = False       # never re-emit a legacy script for nvfuser_direct
    max_memory: int | None = None                                  # --max-memory: bytes fmin may plan with
    available_memory: "Callable[[str], int | None] | None" = None  # what a device has (tests fake it)


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


def _needs_upgrade(program, opt: Options) -> bool:
    """A legacy script on an nvFuser without the legacy frontend (0.2.36 removed it)."""
    if opt.keep_frontend or opt.backend != "nvfuser" or not program.dialect.is_legacy:
        return False
    import importlib.util
    return importlib.util.find_spec("nvfuser") is None and importlib.util.find_spec("nvfuser_direct") is not None


class StatusLine(ProgressLine):
    """The reducer's progress: pass, ops/inputs/outputs/bytes now vs at start, tests, cache hits."""

    def __call__(self, s: dict) -> None:
        o0, i0, x0 = s["start"]
        self.show(f"[{s['elapsed']:6.0f}s] {s['pass']:<22} ops {s['ops']}/{o0}  inputs {s['inputs']}/{i0}  "
                  f"outputs {s['outputs']}/{x0}  bytes {s['bytes']}/{s['start_bytes']}  "
                  f"tests {s['tests']}  cache {s['cache_hits']}")


def _fit_memory(original, prop_flags: Property | None, opt: Options) -> int:
    """The workers that fit in memory; raises Refused (exit 2) when not even one run does: a
    script with gigabyte inputs is refused with a sentence before anything runs, instead of
    getting the workers SIGKILLed."""
    from ..oracle.memory import plan
    p = plan(original, opt.backend, opt.device, opt.jobs,
             reference=prop_flags is not None and prop_flags.runs_reference,
             fp64=prop_flags is not None and prop_flags.runs_fp64_reference,
             available_fn=opt.available_memory, cap=opt.max_memory)
    if p.refusal:
        raise Refused("environment", p.refusal)
    if p.note and not opt.quiet:
        import sys
        print(f"fmin: {p.note}", file=sys.stderr)
    return p.jobs


def reduce_script(path: str, prop_flags: Property | None, opt: Options, *, pool: Pool | None = None,
                  extra_pools: dict | None = None) -> dict:
    """Reduce ``path``. ``pool`` (and ``extra_pools``, by backend name): warm pools to use instead
    of starting workers (the fuzzer minimizes findings with the pools it fuzzes with); they are
    left open."""
    t_start = time.perf_counter()
    original = parse_file(path)
    with open(path, encoding="utf-8") as f:
        original_text = f.read()
    upgraded = _needs_upgrade(original, opt)
    if upgraded:   # the user's nvFuser has no legacy frontend: reduce the script it can run
        from ..program.printer import to_source
        from ..upgrade import upgrade
        original = parse(to_source(upgrade(original, "nvfuser_direct")), path)
    out_dir = opt.out or os.path.splitext(path)[0] + ".fmin"
    if os.path.abspath(out_dir) == os.path.abspath(path):
        raise ValueError("the output directory cannot be the script itself")
    check_out_dir(out_dir)
    abspath = os.path.abspath(path)
    status = StatusLine(opt.quiet)
    given = dict(extra_pools or {})
    if pool is not None:
        given[opt.backend] = pool
    elif prop_flags is None or prop_flags.needs_outcome:   # (a --test alone runs no worker)
        status.starting(get_backend(opt.backend), opt.device, opt.jobs, "to run the original")
    jobs = _fit_memory(original, prop_flags, opt) if pool is None else opt.jobs
    lock = None
    with Pools(opt.backend, opt.device, jobs=jobs, timeout=opt.timeout, options=opt.run_options,
               given=given) as pools:
        oracle = PropertyOracle(prop_flags, pools, abspath, seed=opt.seed, allow_degenerate=opt.allow_degenerate)
        try:
            run_text = original.source.text if upgraded else original_text
            base = oracle.establish(run_text, opt.replays, program=original)
            # nothing is written before the original is known to be worth reducing: a refused
            # script (its own error, the machine's) leaves no trace in DIR
            lock = claim_out_dir(out_dir)
            prop = base.prop
            prop_key = json.dumps(prop.to_json(), sort_keys=True)
            cache_path = os.path.join(out_dir, "cache.json")
            session = Session(oracle.judge, also_dir=os.path.join(out_dir, "also-interesting"))
            start, resumed = original, False
            if opt.resume:
                prev = resume_point(out_dir, original_text, prop_key)
                if prev is not None:
                    start = parse(prev, os.path.join(out_dir, "repro.min.py"))
                    resumed = True
                    session.load(cache_path)

            def progress(s: dict) -> None:
                status(s)
                if s.get("accepted"):
                    session.save(cache_path)

            min_extent = 2 if oracle.guards_degenerate else 1
            reducer = Reducer(start, session, jobs=jobs, out_dir=out_dir, on_progress=progress,
                              max_tests=opt.max_tests, max_seconds=opt.max_seconds,
                              passes=passes_for(min_extent=min_extent), static_filter=oracle.static_filter,
                              lenient=oracle.static_error is not None)
            if not resumed:
                reducer.save_best()
            write_state(out_dir, original_text, prop_key, tests=0, done=False)
            result = reducer.run()
            status.done()
            session.save(cache_path)
            write_state(out_dir, original_text, prop_key, tests=result.tests, done=not result.interrupted)
            finals = [] if result.interrupted else oracle.replay(result.text, opt.replays)
            after = finals[0].outcome if finals else None
            ob, ib, xb = edits.size(original)
            oa, ia, xa = edits.size(result.program)
            rep = reports.build(
                script=path, sizes_before=(ob, ib, xb), sizes_after=(oa, ia, xa),
                bytes_before=len(original_text), minimal_script=result.text, prop=prop.describe(),
                backend=opt.backend, backend_title=get_backend(opt.backend).title, before=base.first, after=after,
                oracle_calls=result.tests,
                cache_hits=result.cache_hits, seconds=result.seconds, interrupted=result.interrupted,
                passes=stats_table(result.stats), also_interesting=result.also_interesting,
                replays={"original": f"{base.held}/{len(base.replays)}",
                         **({"minimized": f"{sum(v.holds for v in finals)}/{len(finals)}"} if finals else {}),
                         **({"resumed": True} if resumed else {})},
                environment=base.first.environment if base.first is not None else {})
            rep["flaky"] = base.flaky
            rep["static_error"] = oracle.static_error
            # the result re-run: a minimized script that no longer shows the property (a candidate
            # that held once by accident, a machine problem) must not pass for a result
            rep["verified"] = None if not finals else any(v.holds for v in finals)
            env = dict((after or base.first).environment if (after or base.first) is not None else {})
            if opt.run_options.inductor_config:
                env["inductor_config"] = list(opt.run_options.inductor_config)
            if not result.interrupted:   # the confirmed result: a header that says where and how
                final_text = reports.with_header(result.text, reports.repro_header(env, opt.command, prop.describe()))
                with open(os.path.join(out_dir, "repro.min.py"), "w", encoding="utf-8") as f:
                    f.write(final_text)
                rep["minimal_script"] = final_text
            rep["original_header"] = reports.original_header(original_text)
            if finals:
                judged = finals[0].to_json()
                if judged.get("mismatch"):
                    rep["mismatch"] = judged["mismatch"]
                rep["property_reason"] = finals[0].reason
            rep["wall_seconds"] = round(time.perf_counter() - t_start, 1)
            rep["command"] = opt.command
            if upgraded:
                rep["upgraded"] = ("the script uses the legacy `nvfuser` frontend, which this nvFuser no longer has; "
                                   "fmin reduced its `fmin upgrade` translation to `nvfuser_direct`")
            with open(os.path.join(out_dir, "report.json"), "w") as f:
                json.dump(rep, f, indent=1)
            with open(os.path.join(out_dir, "report.md"), "w") as f:
                f.write(reports.to_markdown(rep))
            rep["out_dir"] = out_dir
            return rep
        finally:
            oracle.close()
            if lock is not None:
                lock.close()
