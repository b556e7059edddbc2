#!/usr/bin/env python3
"""How reductions and fuzz campaigns scale with GPUs (and workers per GPU).

For each GPU count g (the first g visible GPUs, by ``CUDA_VISIBLE_DEVICES``) and workers per GPU
k, it runs, as a user would:
  * ``fmin reduce SCRIPT --jobs g*k --max-tests N`` (fresh output directory each time) and
    reads ``report.json``: wall seconds, oracle calls, calls per second;
  * ``fmin fuzz --max-examples M --jobs g*k --no-minimize`` (fresh corpus) and reads the summary:
    programs per second.
It prints a Markdown table with the speedup of each row against the first (1 GPU, or 1 worker).
Without GPUs (``--device cpu``) the "GPU" column is 0 and only the worker count varies.

    python scripts/bench_scale.py --gpus 1 2 4 8 --per-gpu 2 --backend nvfuser SCRIPT      # a multi-GPU host
    python scripts/bench_scale.py --device cpu --workers 1 2 --backend reference SCRIPT   # anywhere
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def run(cmd, env) -> tuple[int, float, str]:
    t0 = time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    return p.returncode, time.perf_counter() - t0, p.stdout + p.stderr


def main() -> int:
    from minimizer.oracle.pool import visible_gpus
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("script", help="the script to reduce")
    ap.add_argument("--backend", default="nvfuser")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--gpus", nargs="+", type=int, default=[1, 2, 4, 8])
    ap.add_argument("--per-gpu", nargs="+", type=int, default=[1], help="workers per GPU to try")
    ap.add_argument("--workers", nargs="+", type=int, default=[1, 2], help="worker counts (--device cpu)")
    ap.add_argument("--max-tests", type=int, default=60, help="oracle calls per reduction")
    ap.add_argument("--examples", type=int, default=40, help="programs per campaign")
    ap.add_argument("--property", default="", help="property flags for the reduction, e.g. \"--segments '>=2'\"")
    args = ap.parse_args()
    import shlex
    prop = shlex.split(args.property)
    gpus = visible_gpus() if args.device == "cuda" else []
    if args.device == "cuda":
        plan = [(g, k) for g in args.gpus if g <= len(gpus) for k in args.per_gpu]
        skipped = [g for g in args.gpus if g > len(gpus)]
    else:
        plan = [(0, w) for w in args.workers]
        skipped = []
    rows = []
    for g, k in plan:
        jobs = g * k if g else k
        env = dict(os.environ)
        if g:
            env["CUDA_VISIBLE_DEVICES"] = ",".join(gpus[:g])
        with tempfile.TemporaryDirectory(prefix="fmin-scale-") as d:
            rc, secs, log = run([sys.executable, "-m", "minimizer", "reduce", args.script, "--backend", args.backend,
                                 "--device", args.device, "--jobs", str(jobs), "--max-tests", str(args.max_tests),
                                 "--out", os.path.join(d, "r"), "--no-resume", "-q", *prop], env)
            rep = {}
            if os.path.exists(os.path.join(d, "r", "report.json")):
                with open(os.path.join(d, "r", "report.json")) as f:
                    rep = json.load(f)
            summ = os.path.join(d, "fuzz.json")
            frc, fsecs, flog = run([sys.executable, "-m", "minimizer", "fuzz", "--backend", args.backend,
                                    "--device", args.device, "--jobs", str(jobs), "--max-examples", str(args.examples),
                                    "--seed", "0", "--corpus", os.path.join(d, "c"), "--no-minimize",
                                    "--fail-on", "never", "--summary", summ, "-q"], env)
            fz = {}
            if os.path.exists(summ):
                with open(summ) as f:
                    fz = json.load(f)
        calls = rep.get("oracle_calls") or 0
        rows.append({"gpus": g, "per_gpu": k if g else None, "jobs": jobs, "reduce_s": secs, "calls": calls,
                     "calls_per_s": calls / secs if secs else 0, "reduce_rc": rc,
                     "fuzz_s": fsecs, "programs": fz.get("programs", 0),
                     "programs_per_s": fz.get("programs", 0) / fsecs if fsecs else 0, "fuzz_rc": frc,
                     "log": (log if rc not in (0, 1) else "") + (flog if frc != 0 else "")})
    base = rows[0] if rows else None
    print(f"backend {args.backend}, device {args.device}, script {os.path.basename(args.script)}, "
          f"{args.max_tests} oracle calls per reduction, {args.examples} programs per campaign")
    print()
    print("| GPUs | workers | reduce s | oracle calls/s | speedup | fuzz s | programs/s | speedup |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        su = r["calls_per_s"] / base["calls_per_s"] if base["calls_per_s"] else 0
        sf = r["programs_per_s"] / base["programs_per_s"] if base["programs_per_s"] else 0
        print(f"| {r['gpus']} | {r['jobs']} | {r['reduce_s']:.1f} | {r['calls_per_s']:.2f} | {su:.2f}× | "
              f"{r['fuzz_s']:.1f} | {r['programs_per_s']:.2f} | {sf:.2f}× |")
    for r in rows:
        if r["log"]:
            print(f"\n(jobs {r['jobs']}: a run failed)\n" + r["log"][-2000:])
    if skipped:
        print(f"\nnot measured: {', '.join(map(str, skipped))} GPUs (only {len(gpus)} visible)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
