"""The ``fmin`` command line.

Every subcommand reads scripts through the parser first, so a script fmin cannot read stops with
``file:line:col: what was expected`` and exit code 2 before anything runs. Scripts themselves
run only in worker processes.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from .errors import ScriptError, UsageError


def _default_device() -> str:
    try:
        import torch
        return "cuda" if torch.cuda.is_available() else "cpu"
    except Exception:
        return "cpu"


def _add_run_options(p: argparse.ArgumentParser, backend: str = "reference") -> None:
    p.add_argument("--backend", default=backend, choices=["auto", "reference", "inductor", "nvfuser"],
                   help=f"how scripts are run (default: {backend}; auto = nvfuser if it imports and a GPU exists, "
                        "else inductor)")
    p.add_argument("--device", choices=["cpu", "cuda"], default=None,
                   help="device for the reference and inductor backends (default: cuda if available)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds one script may take (default 600)")
    p.add_argument("--seed", type=int, default=0, help="torch seed set before each script runs")


def _add_property_options(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group("property", "what a script must show; with any of these, the exit code says "
                                         "whether it holds for every script")
    g.add_argument("--segments", metavar="EXPR", help="segment count: '>=3', '<=2', '==1', '!=1', '>2', '<4' or '3'")
    g.add_argument("--schedulers", metavar="LIST", nargs="?", const=True,
                   help="scheduler multiset, e.g. 'pointwise,reduction*2' (order does not matter); bare: "
                        "the original run's (in check: the script's own)")
    g.add_argument("--error", metavar="REGEX", help="fails (error or crash) with REGEX in its signature or message")
    g.add_argument("--mismatch", action="store_true",
                   help="outputs differ from the reference backend's (same seed and device) beyond tolerance")
    g.add_argument("--slower", metavar="X", type=float, help="execute time more than X times the baseline's")
    g.add_argument("--baseline", metavar="BACKEND", default="reference",
                   choices=["reference", "inductor", "nvfuser"], help="baseline for --slower (default: reference)")
    g.add_argument("--repeats", metavar="K", type=int, default=5, help="timing runs per backend for --slower")
    g.add_argument("--test", metavar="CMD", help="shell command, the script's copy as $1 (run in its directory, "
                                                 "C-Reduce style); exit 0 = holds")
    g.add_argument("--test-timeout", metavar="S", type=float, default=None,
                   help="seconds --test may take (default: --timeout)")
    g.add_argument("--order-dependent", action="store_true",
                   help="the outcome (status, segments, schedulers) changes when the fusion inputs are permuted "
                        "(declarations and inputs list together); reports the smallest permutation found")


def _property(args):
    from .oracle.property import Property
    try:
        return Property.from_options(
            segments=args.segments, schedulers=args.schedulers, error=args.error, mismatch=args.mismatch,
            slower=args.slower, baseline=args.baseline, repeats=args.repeats, test=args.test,
            test_timeout=args.test_timeout or args.timeout,
            order_dependent=getattr(args, "order_dependent", False))
    except ValueError as e:
        raise UsageError(str(e)) from None


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="fmin", description="nvFuser repro minimizer and fuzzer")
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")

    c = sub.add_parser("check", help="run scripts and report status, outputs and errors")
    c.add_argument("scripts", nargs="+", metavar="SCRIPT")
    _add_run_options(c)
    c.add_argument("--json", action="store_true", help="one JSON object per script and line")
    _add_property_options(c)

    r = sub.add_parser("reduce", help="reduce a script to a 1-minimal one that still shows the property "
                                      "(also: fmin SCRIPT)")
    r.add_argument("script", metavar="SCRIPT")
    _add_run_options(r, backend="auto")  # segments exist only on compilers
    _add_property_options(r)
    r.add_argument("--out", metavar="DIR", help="output directory (default: SCRIPT without .py, plus .fmin)")
    r.add_argument("--replays", type=int, default=3, help="runs of the original (and of the result) to detect "
                                                           "flakiness (default 3)")
    r.add_argument("--max-tests", type=int, default=None, help="stop after this many oracle calls")
    r.add_argument("--max-time", type=float, default=None, help="stop after this many seconds (best so far kept)")
    r.add_argument("--no-resume", action="store_true", help="start from the original even if DIR holds a "
                                                            "best-so-far of the same reduction")
    r.add_argument("-q", "--quiet", action="store_true", help="no status line")

    i = sub.add_parser("isolate", help="which differences between a GOOD and a BAD script explain their "
                                       "different outcomes (delta debugging over the aligned differences)")
    i.add_argument("good", metavar="GOOD")
    i.add_argument("bad", metavar="BAD")
    _add_run_options(i)
    i.add_argument("--out", metavar="DIR", help="where to write isolate.md/isolate.json (default: BAD without "
                                                ".py, plus .isolate)")
    i.add_argument("--max-tests", type=int, default=200, help="oracle calls per direction (default 200)")

    u = sub.add_parser("upgrade", help="re-emit a script for today's nvFuser frontend")
    u.add_argument("script", metavar="SCRIPT")
    u.add_argument("--to", choices=["nvfuser", "nvfuser_direct"], default="nvfuser_direct")
    u.add_argument("-o", "--output", help="where to write (default: standard output); never the input file")
    return ap


_COMMANDS = ("check", "reduce", "upgrade", "isolate")


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in _COMMANDS and not argv[0].startswith("-"):
        argv = ["reduce"] + argv  # ``fmin repro.py`` is ``fmin reduce repro.py``
    args = ap.parse_args(argv)
    if args.cmd is None:
        ap.print_help()
        return 2
    try:
        if args.cmd == "check":
            return cmd_check(args)
        if args.cmd == "upgrade":
            return cmd_upgrade(args)
        if args.cmd == "reduce":
            return cmd_reduce(args)
        if args.cmd == "isolate":
            return cmd_isolate(args)
    except ScriptError as e:
        print(f"fmin: {e}", file=sys.stderr)
        return 2
    except UsageError as e:
        print(f"fmin: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("fmin: interrupted", file=sys.stderr)
        return 130
    return 2


def _read(path: str):
    from .program import parse_file
    if not os.path.exists(path):
        raise UsageError(f"{path}: no such file")
    return parse_file(path)


def cmd_check(args) -> int:
    from .backends import resolve
    from .oracle import Pool, Request
    backend = resolve(args.backend)
    device = args.device or _default_device()
    prop = _property(args)
    bad = 0
    jobs = []
    for path in args.scripts:
        try:
            _read(path)  # static check first: a script fmin cannot read is reported, not run
        except (ScriptError, UsageError) as e:
            print(f"fmin: {e}", file=sys.stderr)
            bad += 1
            continue
        with open(path, encoding="utf-8") as f:
            jobs.append((path, Request(f.read(), os.path.abspath(path), args.seed,
                                       want_values=bool(prop and prop.needs_values))))
    failed = 0
    failing_property = 0
    if jobs:
        with Pool(backend, device, jobs=min(args.jobs, len(jobs)), timeout=args.timeout) as pool:
            outcomes = pool.run_many([r for _, r in jobs])
            verdicts = _judge(prop, jobs, outcomes, pool, device, args) if prop else [None] * len(jobs)
        failing_property = sum(not v.holds for v in verdicts if v is not None)
        rows = []
        for (path, _), o, v in zip(jobs, outcomes, verdicts):
            failed += o.status != "ok"
            if args.json:
                d = {"file": path, "status": o.status, "signature": o.signature,
                     "segments": o.segments, "schedulers": o.schedulers,
                     "outputs": o.outputs, "seconds": round(o.seconds, 4), "backend": o.backend,
                     "device": device, "error_kind": o.error_kind, "message": o.message,
                     "environment": o.environment}
                if v is not None:
                    d["property"] = {**v.to_json(), "description": prop.describe()}
                print(json.dumps(d))
            else:
                what = ", ".join(_out_str(x) for x in o.outputs) if o.status == "ok" else (o.signature or "")
                rows.append((path, o, v, what))
        if not args.json:
            _print_check_table(rows, prop)
    if bad:
        return 2
    if prop is not None:
        return 1 if failing_property else 0
    return 1 if failed else 0


def _judge(prop, jobs, outcomes, pool, device, args):
    """The property's verdict per script, with the extra pools (reference, baseline) it needs."""
    from .oracle import Pool
    from .oracle.property import evaluate
    extra = {}
    try:
        for name in sorted(prop.extra_backends() - {pool.backend}):
            extra[name] = Pool(name, device, jobs=1, timeout=args.timeout)
        verdicts = []
        for (path, req), o in zip(jobs, outcomes):
            bound = prop.bind(o)   # bare --schedulers: the script's own multiset
            verdicts.append(evaluate(bound, req.script, req.path, pool, extra_pools=extra, seed=args.seed,
                                     outcome=o, all_checks=True))
            if o.values_path:   # evaluate leaves a given outcome's values alone
                try:
                    os.remove(o.values_path)
                except OSError:
                    pass
            o.values = None
        return verdicts
    finally:
        for p in extra.values():
            p.close()


def _print_check_table(rows, prop) -> None:
    if prop is None:
        print(f"{'script':40} {'status':8} {'seconds':>8}  outputs / signature")
        for path, o, _, what in rows:
            print(f"{_short(path, 40):40} {o.status:8} {o.seconds:8.2f}  {what}")
        return
    print(f"property: {prop.describe()}")
    w = max([len("property")] + [len("holds" if v.holds else f"fails: {v.reason}") for _, _, v, _ in rows])
    w = min(w, 80)
    print(f"{'script':40} {'status':8} {'seconds':>8}  {'property':{w}}  outputs / signature")
    for path, o, v, what in rows:
        held = "holds" if v.holds else f"fails: {v.reason}"
        print(f"{_short(path, 40):40} {o.status:8} {o.seconds:8.2f}  {held:{w}}  {what}")
        if len(v.checks) > 1:   # each flag on its own line
            for name, (ok, why) in v.checks.items():
                print(f"    --{name:12} {'holds' if ok else 'fails'}: {why}")


def _out_str(d: dict) -> str:
    if "shape" in d:
        return f"{d['dtype']}{list(d['shape'])}"
    return d.get("scalar", "?")


def _short(s: str, n: int) -> str:
    return s if len(s) <= n else "…" + s[-(n - 1):]


def cmd_reduce(args) -> int:
    from .backends import resolve
    from .reduce.session import Options, PropertyDoesNotHold, reduce_script
    _read(args.script)  # a script fmin cannot read stops here, before any worker starts
    prop = _property(args)
    backend = resolve(args.backend)
    opt = Options(backend=backend, device=args.device or _default_device(), jobs=args.jobs, out=args.out,
                  seed=args.seed, replays=args.replays, timeout=args.timeout, max_tests=args.max_tests,
                  max_seconds=args.max_time, resume=not args.no_resume, quiet=args.quiet)
    try:
        rep = reduce_script(args.script, prop, opt)
    except PropertyDoesNotHold as e:
        print(f"fmin: {args.script}: {e}", file=sys.stderr)
        return 1
    except ValueError as e:
        raise UsageError(str(e)) from None
    print(f"{args.script}: ops {rep['ops_before']} -> {rep['ops_after']}, inputs {rep['inputs_before']} -> "
          f"{rep['inputs_after']}, outputs {rep['outputs_before']} -> {rep['outputs_after']}, "
          f"{rep['oracle_calls']} oracle calls ({rep['cache_hits']} cached), {rep['seconds']} s")
    print(f"property: {rep['property']}   replays: {rep['replays']}")
    print(f"wrote {os.path.join(rep['out_dir'], 'repro.min.py')}, report.md, report.json")
    return 130 if rep["interrupted"] else 0


def cmd_isolate(args) -> int:
    from .backends import resolve
    from .isolate import IsolateError, Options, isolate, summary_lines, write
    _read(args.good)
    _read(args.bad)
    opt = Options(backend=resolve(args.backend), device=args.device or _default_device(), jobs=args.jobs,
                  seed=args.seed, timeout=args.timeout, max_tests=args.max_tests)
    try:
        d = isolate(args.good, args.bad, opt=opt)
    except IsolateError as e:
        raise UsageError(f"{args.good} vs {args.bad}: {e}") from None
    out = args.out or os.path.splitext(args.bad)[0] + ".isolate"
    write(d, out)
    for line in summary_lines(d):
        print(line)
    print(f"wrote {os.path.join(out, 'isolate.md')}, isolate.json")
    return 1 if d["same_outcome"] else 0


def cmd_upgrade(args) -> int:
    from .upgrade import upgrade
    from .program.printer import to_source
    prog = _read(args.script)
    new = upgrade(prog, args.to)
    text = to_source(new)
    if args.output:
        if os.path.exists(args.output) and os.path.samefile(args.output, args.script):
            raise UsageError(f"{args.output}: refusing to write over the input script; choose another -o")
        with open(args.output, "w", encoding="utf-8") as f:
            f.write(text)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
