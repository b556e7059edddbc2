#!/usr/bin/env python3
"""fmin against picire and Lithium on corpus cases, with one interestingness test for all.

The test (``scripts/bench_interesting.py``): the candidate must still be a well-formed fusion
(fmin's reader + static check) and still contain the case's pattern. Every reducer gets the same
file and the same test command; calls are counted by the test itself.

    pip install picire lithium-reducer 'setuptools<81'
    python scripts/bench_reduce.py            # prints a Markdown table

Tools: fmin (``--test``), picire (line atoms, the README's parallel setting), Lithium (lines).
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

CASES = [
    ("corpus/rope_qkv_split.py", r"fd\.ops\.cat\("),
    ("corpus/seeds/layernorm_bwd_segmented.py", r"fd\.ops\.pow\("),
    ("corpus/legacy_rmsnorm_bwd_2024.py", r"segment_set"),
    ("corpus/direct_ternary_reductions.py", r"fd\.ops\.welford\("),
]

LITHIUM_COND = '''
import subprocess, sys
def interesting(args, temp_prefix):
    return subprocess.call(args) == 0
'''


def ops_and_bytes(path: str) -> tuple[str, int]:
    from minimizer.program import parse_file
    size = os.path.getsize(path)
    try:
        return str(parse_file(path).n_ops()), size
    except Exception:
        return "unparsable", size


def run_tool(tool: str, case: str, pattern: str, work: str, jobs: int) -> dict:
    src = os.path.join(ROOT, case)
    target = os.path.join(work, os.path.basename(case))
    shutil.copy(src, target)
    counter = os.path.join(work, "calls")
    open(counter, "w").close()
    test = os.path.join(work, "test.sh")
    with open(test, "w") as f:
        f.write(f'#!/bin/bash\nexec {sys.executable} {ROOT}/scripts/bench_interesting.py "$1" \'{pattern}\'\n')
    os.chmod(test, 0o755)
    env = dict(os.environ, BENCH_COUNTER=counter, PYTHONPATH=ROOT)
    t0 = time.perf_counter()
    if tool == "fmin":
        out = os.path.join(work, "fmin-out")
        subprocess.run([sys.executable, "-m", "minimizer", target, "--test", test, "--out", out, "-q",
                        "--jobs", str(jobs), "--replays", "1"], env=env, cwd=ROOT, check=True,
                       capture_output=True)
        result = os.path.join(out, "repro.min.py")
    elif tool == "picire":
        out = os.path.join(work, "picire-out")
        subprocess.run(["picire", "-i", target, "--test", test, "-a", "line", "-p", "-j", str(jobs),
                        "--subset-iterator", "skip", "--complement-iterator", "backward", "-o", out,
                        "--log-level", "ERROR"], env=env, cwd=work, check=True, capture_output=True)
        result = os.path.join(out, os.path.basename(case))
    elif tool == "lithium":
        cond = os.path.join(work, "shell_cond.py")
        with open(cond, "w") as f:
            f.write(LITHIUM_COND)
        env["PYTHONPATH"] = work + os.pathsep + ROOT
        subprocess.run([sys.executable, "-m", "lithium", "--lines", "shell_cond", test, target], env=env,
                       cwd=work, check=True, capture_output=True)
        result = target  # Lithium reduces in place
    else:
        raise ValueError(tool)
    secs = time.perf_counter() - t0
    calls = sum(1 for _ in open(counter))
    ops, size = ops_and_bytes(result)
    return {"ops": ops, "bytes": size, "calls": calls, "seconds": secs}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tools", nargs="+", default=["fmin", "picire", "lithium"])
    ap.add_argument("--cases", nargs="+", type=int, default=None, help="indices into CASES")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    print("| case | pattern kept | tool | final ops | final bytes | oracle calls | wall (s) |")
    print("|---|---|---|---:|---:|---:|---:|")
    for k, (case, pattern) in enumerate(CASES):
        if args.cases is not None and k not in args.cases:
            continue
        ops0, bytes0 = ops_and_bytes(os.path.join(ROOT, case))
        print(f"| {case} | `{pattern}` | (original) | {ops0} | {bytes0} | – | – |", flush=True)
        for tool in args.tools:
            with tempfile.TemporaryDirectory() as work:
                try:
                    r = run_tool(tool, case, pattern, work, args.jobs)
                except subprocess.CalledProcessError as e:
                    print(f"| {case} | | {tool} | failed: {e.stderr[-200:]!r} | | | |", flush=True)
                    continue
            print(f"| {case} | | {tool} | {r['ops']} | {r['bytes']} | {r['calls']} | {r['seconds']:.0f} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
