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


def _add_run_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--backend", default="reference", choices=["auto", "reference", "inductor", "nvfuser"],
                   help="how scripts are run (default: reference; auto = nvfuser if it imports and a GPU exists, "
                        "else inductor)")
    p.add_argument("--device", choices=["cpu", "cuda"], default=None,
                   help="device for the reference and inductor backends (default: cuda if available)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes")
    p.add_argument("--timeout", type=float, default=600.0, help="seconds one script may take (default 600)")
    p.add_argument("--seed", type=int, default=0, help="torch seed set before each script runs")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="fmin", description="nvFuser repro minimizer and fuzzer")
    sub = ap.add_subparsers(dest="cmd", metavar="COMMAND")

    c = sub.add_parser("check", help="run scripts and report status, outputs and errors")
    c.add_argument("scripts", nargs="+", metavar="SCRIPT")
    _add_run_options(c)
    c.add_argument("--json", action="store_true", help="one JSON object per script and line")

    u = sub.add_parser("upgrade", help="re-emit a script for today's nvFuser frontend")
    u.add_argument("script", metavar="SCRIPT")
    u.add_argument("--to", choices=["nvfuser", "nvfuser_direct"], default="nvfuser_direct")
    u.add_argument("-o", "--output", help="where to write (default: standard output); never the input file")
    return ap


def main(argv: list[str] | None = None) -> int:
    ap = build_parser()
    args = ap.parse_args(argv)
    if args.cmd is None:
        ap.print_help()
        return 2
    try:
        if args.cmd == "check":
            return cmd_check(args)
        if args.cmd == "upgrade":
            return cmd_upgrade(args)
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
            jobs.append((path, Request(f.read(), os.path.abspath(path), args.seed)))
    failed = 0
    if jobs:
        with Pool(backend, device, jobs=min(args.jobs, len(jobs)), timeout=args.timeout) as pool:
            outcomes = pool.run_many([r for _, r in jobs])
        if not args.json:
            print(f"{'script':40} {'status':8} {'seconds':>8}  outputs / signature")
        for (path, _), o in zip(jobs, outcomes):
            failed += o.status != "ok"
            if args.json:
                print(json.dumps({"file": path, "status": o.status, "signature": o.signature,
                                  "segments": o.segments, "schedulers": o.schedulers,
                                  "outputs": o.outputs, "seconds": round(o.seconds, 4), "backend": o.backend,
                                  "device": device, "error_kind": o.error_kind, "message": o.message,
                                  "environment": o.environment}))
            else:
                what = ", ".join(_out_str(x) for x in o.outputs) if o.status == "ok" else (o.signature or "")
                print(f"{_short(path, 40):40} {o.status:8} {o.seconds:8.2f}  {what}")
    if bad:
        return 2
    return 1 if failed else 0


def _out_str(d: dict) -> str:
    if "shape" in d:
        return f"{d['dtype']}{list(d['shape'])}"
    return d.get("scalar", "?")


def _short(s: str, n: int) -> str:
    return s if len(s) <= n else "…" + s[-(n - 1):]


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
