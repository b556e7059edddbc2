"""One reduction from a script on disk to ``repro.min.py`` + reports: the glue between the reader,
the oracle (pool + property) and the driver.

Order of events, and why:
1. read the script (a script fmin cannot read stops here, exit 2);
2. run the original ``replays`` times: the property is derived from the first run unless flags
   give one, and the replays tell whether the behaviour is deterministic (a flaky property is
   reported with its rate, and every candidate must then hold twice in a row);
3. resume from an earlier run's best-so-far if one exists for the same original and property;
4. reduce; every accepted step rewrites ``repro.min.py``;
5. re-verify the result ``replays`` times, write ``report.md`` and ``report.json``.
The input file is never written; everything goes to the output directory.
"""
from __future__ import annotations

import contextlib
import json
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from ..oracle.pool import Pool, Request
from ..oracle.property import Property, evaluate
from ..program.reader import parse, parse_file
from .. import report as reports
from ..progress import ProgressLine
from .driver import Reducer, Verdict, resume_point, write_state

_NOT_INTERESTING = {"user-input", "definition", "no-execute", "fmin-internal", "fmin-translation"}


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


class StatusLine(ProgressLine):
    """The reducer's progress: pass, ops/inputs/outputs/bytes now vs at start, tests, cache hits."""

    def __call__(self, s: dict) -> None:
        o0, i0, x0 = s["start"]
        self.show(f"[{s['elapsed']:6.0f}s] {s['pass']:<22} ops {s['ops']}/{o0}  inputs {s['inputs']}/{i0}  "
                  f"outputs {s['outputs']}/{x0}  bytes {s['bytes']}/{s['start_bytes']}  "
                  f"tests {s['tests']}  cache {s['cache_hits']}")


def reduce_script(path: str, prop_flags: Property | None, opt: Options, *, pool: Pool | None = None,
                  extra_pools: dict | None = None) -> dict:
    """Reduce ``path``. ``pool`` (and ``extra_pools``, by backend name): warm pools to use instead
    of starting workers (the fuzzer minimizes findings with the pools it fuzzes with); they are
    left open."""
    original = parse_file(path)
    with open(path, encoding="utf-8") as f:
        original_text = f.read()
    out_dir = opt.out or os.path.splitext(path)[0] + ".fmin"
    if os.path.abspath(out_dir) == os.path.abspath(path):
        raise ValueError("the output directory cannot be the script itself")
    os.makedirs(out_dir, exist_ok=True)
    abspath = os.path.abspath(path)
    status = StatusLine(opt.quiet)
    own_pool = pool is None
    with (Pool(opt.backend, opt.device, jobs=opt.jobs, timeout=opt.timeout) if own_pool
          else contextlib.nullcontext(pool)) as pool:
        given = dict(extra_pools or {})
        extra = {}
        needed = prop_flags.extra_backends() if prop_flags is not None else set()
        for name in needed - {opt.backend}:
            extra[name] = given[name] if name in given else Pool(name, opt.device, jobs=opt.jobs, timeout=opt.timeout)
        try:
            # a property of flags that need no backend run (only --test) starts no worker at all
            needs_run = prop_flags is None or prop_flags.needs_outcome
            first = pool.run(Request(original_text, abspath, opt.seed)) if needs_run else None
            prop = prop_flags.bind(first) if prop_flags is not None else Property.from_outcome(first)
            replays = [evaluate(prop, original_text, abspath, pool, extra_pools=extra, seed=opt.seed)
                       for _ in range(max(1, opt.replays))]
            held = sum(v.holds for v in replays)
            if held == 0:
                raise PropertyDoesNotHold(prop.describe(), replays[0].reason, first)
            flaky = held < len(replays)
            desc = prop.describe()
            prop_key = json.dumps(prop.to_json(), sort_keys=True)
            start = original
            resumed = False
            if opt.resume:
                prev = resume_point(out_dir, original_text, prop_key)
                if prev is not None:
                    start = parse(prev, os.path.join(out_dir, "repro.min.py"))
                    resumed = True

            def judge_one(text: str) -> Verdict:
                runs = 2 if flaky else 1
                v = None
                for _ in range(runs):
                    v = evaluate(prop, text, abspath, pool, extra_pools=extra, seed=opt.seed)
                    if not v.holds:
                        break
                o = v.outcome
                slipped = (not v.holds and o is not None and o.status != "ok" and first is not None
                           and o.signature != first.signature and (o.error_kind or "") not in _NOT_INTERESTING)
                return Verdict(v.holds, v.reason, o, slipped)

            executor = ThreadPoolExecutor(max_workers=max(1, opt.jobs))

            def judge(texts):
                return list(executor.map(judge_one, texts))

            reducer = Reducer(start, judge, jobs=opt.jobs, out_dir=out_dir, on_progress=status,
                              max_tests=opt.max_tests, max_seconds=opt.max_seconds,
                              also_interesting_dir=os.path.join(out_dir, "also-interesting"))
            if not resumed:
                reducer.save_best()
            write_state(out_dir, original_text, prop_key, tests=0, done=False)
            result = reducer.run()
            executor.shutdown()
            status.done()
            write_state(out_dir, original_text, prop_key, tests=result.tests, done=not result.interrupted)
            finals = [] if result.interrupted else \
                [evaluate(prop, result.text, abspath, pool, extra_pools=extra, seed=opt.seed) for _ in range(opt.replays)]
            after = finals[0].outcome if finals else None
            rep = reports.build(
                script=path, original=original, original_text=original_text, result=result, prop=desc,
                backend=opt.backend, before=first, after=after,
                replays={"original": f"{held}/{len(replays)}",
                         **({"minimized": f"{sum(v.holds for v in finals)}/{len(finals)}"} if finals else {}),
                         **({"resumed": True} if resumed else {})},
                environment=first.environment if first is not None else {})
            rep["flaky"] = flaky
            # the result re-run: a minimized script that no longer shows the property (a candidate
            # that held once by accident, a machine problem) must not pass for a result
            rep["verified"] = None if not finals else any(v.holds for v in finals)
            with open(os.path.join(out_dir, "report.json"), "w") as f:
                json.dump(rep, f, indent=1)
            with open(os.path.join(out_dir, "report.md"), "w") as f:
                f.write(reports.to_markdown(rep))
            rep["out_dir"] = out_dir
            return rep
        finally:
            for name, p in extra.items():
                if name not in given:
                    p.close()


class PropertyDoesNotHold(Exception):
    def __init__(self, prop: str, reason: str, outcome):
        super().__init__(f"the original script does not show the property ({prop}): {reason}")
        self.outcome = outcome
