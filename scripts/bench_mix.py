"""Campaign mixes side by side for equal time: which finds the most new bugs per GPU-hour?

    python3 scripts/bench_mix.py --time 240 --known corpus/findings --out DIR \\
        --mix 'generative=' --mix 'seeded=--seeds corpus/*.py corpus/seeds' \\
        --mix 'workflow=--seeds ../Fuser corpus/*.py corpus/seeds --feedback' \\
        -- --backend nvfuser --device cuda --jobs 4 --minimize-budget 150

Each mix is one ``fmin fuzz`` (its arguments after ``NAME=``; a glob is expanded here), all of them
started at once with the arguments after ``--`` in common, each with its own ``--corpus DIR/NAME``
and ``--summary DIR/NAME.json``, the same ``--time`` and ``--seed``. Then each mix's findings are
merged into a copy of ``--known`` (the project's corpus, as a night merges its shards) and judged as
the nightly gate judges (``fmin new-bugs``: ``buglist.gate``): its new *Bugs* rows, and the distinct
root causes among them (one per key). The table (docs/fuzz.md keeps it, with the card and the date):

    | mix | programs | decision signatures | new buckets | new Bugs rows | new root causes |

How real those rows are is for a person to read (the bug list's attachments); this counts them.
A mix that fails or is killed keeps its row: its stored buckets are judged, its programs say
what happened to it (``killed``, ``exit N``).
"""
from __future__ import annotations

import argparse
import contextlib
import glob
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)   # this checkout's fmin, wherever the script is run from


def mix_args(text: str) -> list[str]:
    """A mix's own arguments: shell words, each glob expanded (sorted; a glob matching nothing stays)."""
    out = []
    for word in shlex.split(text):
        got = sorted(glob.glob(word)) if any(c in word for c in "*?[") else []
        out += got or [word]
    return out


def command(name: str, own: list[str], common: list[str], out: str, seconds: float, seed: int) -> list[str]:
    return [sys.executable, "-m", "minimizer", "fuzz", *own, *common, "--time", str(seconds), "--seed", str(seed),
            "--corpus", os.path.join(out, name), "--summary", os.path.join(out, f"{name}.json"), "-q"]


def run_all(mixes: dict[str, list[str]], common: list[str], out: str, seconds: float, seed: int,
            grace: float) -> dict[str, int | None]:
    """Every mix at once; each one's exit status (None: killed after ``seconds + grace``)."""
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    procs = {}
    for name, own in mixes.items():
        log = open(os.path.join(out, f"{name}.log"), "w", encoding="utf-8")
        procs[name] = (subprocess.Popen(command(name, own, common, out, seconds, seed), stdout=log,
                                        stderr=subprocess.STDOUT, env=env, cwd=os.getcwd()), log)
    deadline = time.monotonic() + seconds + grace
    status: dict[str, int | None] = {}
    for name, (p, log) in procs.items():
        try:
            status[name] = p.wait(timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()
            status[name] = None
        log.close()
    return status


def judged(name: str, known: str, out: str) -> tuple[int, int, int]:
    """(new buckets, new Bugs rows, new root causes) of mix ``name``: its findings merged into a copy
    of ``known``, the gate's new rows counted, and their distinct keys."""
    from minimizer.fuzz.buglist import gate
    found = os.path.join(out, name)
    merged = os.path.join(out, f"{name}-merged")
    shutil.rmtree(merged, ignore_errors=True)
    shutil.copytree(known, merged)
    buckets = [d for d in os.listdir(found) if os.path.isfile(os.path.join(found, d, "finding.json"))] \
        if os.path.isdir(found) else []
    if buckets:   # as a night merges its shards (``fmin merge-findings``): re-keyed by today's rules
        from minimizer.cli import main as fmin
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            fmin(["merge-findings", found, "--into", merged])
    new = gate.new_bug_rows(known, merged)
    return len(buckets), len(new), len({str(r["_m"].key) for r in new})


def table(rows: list[tuple]) -> list[str]:
    out = ["| mix | programs | decision signatures | new buckets | new Bugs rows | new root causes |",
           "|---|---|---|---|---|---|"]
    out += [f"| {' | '.join(str(x) for x in r)} |" for r in rows]
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    common = argv[argv.index("--") + 1:] if "--" in argv else []
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--mix", action="append", required=True, metavar="NAME=ARGS", help="a mix: its fmin fuzz arguments")
    ap.add_argument("--time", type=float, default=240.0, help="seconds each mix runs (default 240)")
    ap.add_argument("--seed", type=int, default=1, help="the campaign seed of every mix")
    ap.add_argument("--known", required=True, help="the corpus the new rows are counted against")
    ap.add_argument("--out", required=True, help="a folder for the mixes' corpora, summaries and logs")
    ap.add_argument("--grace", type=float, default=300.0, help="seconds past --time before a mix is killed")
    args = ap.parse_args(argv[:argv.index("--")] if "--" in argv else argv)
    mixes = {}
    for spec in args.mix:
        name, sep, rest = spec.partition("=")
        if not sep or not name.isidentifier():
            ap.error(f"--mix {spec!r}: expected NAME=ARGS (NAME a word)")
        mixes[name] = mix_args(rest)
    os.makedirs(args.out, exist_ok=True)
    status = run_all(mixes, common, args.out, args.time, args.seed, args.grace)
    rows = [row(name, status[name], args.known, args.out) for name in mixes]
    for line in table(rows):
        print(line)
    return 0


def row(name: str, status: int | None, known: str, out: str) -> tuple:
    """A mix's row. A mix killed (or failed) before its summary still leaves the buckets it stored:
    they are judged all the same, its programs and signatures shown as what happened to it (the
    H100 mix of 2026-12-08 lost two mixes' rows to a call's time limit that way)."""
    try:
        with open(os.path.join(out, f"{name}.json"), encoding="utf-8") as f:
            s = json.load(f)
        cov = s.get("decision_coverage") or {}
        ran = (s.get("programs", 0), cov.get("signatures", "-"))
    except (OSError, ValueError):
        ran = ("killed" if status is None else f"exit {status}", "-")
    return (name, *ran, *judged(name, known, out))


if __name__ == "__main__":
    sys.exit(main())
