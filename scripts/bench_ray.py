#!/usr/bin/env python3
"""Programs per minute of one campaign run two ways on this machine: ``--jobs N`` (one process,
N workers of the backend and N of the reference) and ``--ray`` with N actors on a local Ray
cluster of N CPUs (each actor one worker of the backend and one of the reference; on cuda each
actor holds a 1/N share of the one GPU, ``--gpus-per-actor``). Same seed,
same programs, no minimization; prints a Markdown table.

    python3 scripts/bench_ray.py                       # inductor, 40 programs, seed 0, N = 2
    python3 scripts/bench_ray.py --backend reference --examples 60 --repeat 2
    python3 scripts/bench_ray.py --backend nvfuser --device cuda --jobs 4 --time 120   # one GPU, 4 actors of 0.25

"judging s" is the campaign's own clock (first program handed out to last result: worker start-up
included, as in every campaign); "warm" counts from the 5th program judged to the last (every
worker started); "wall s" adds the set-up and, for Ray, the cluster's start (shown apart as
"ray start s"; the actors' start is in judging).
"""
from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from minimizer.fuzz.campaign.local import LocalRunner   # noqa: E402
from minimizer.fuzz.campaign.options import CampaignOptions, default_frontend   # noqa: E402
from minimizer.fuzz.campaign.run import run_campaign   # noqa: E402
from minimizer.oracle.context import RunContext  # noqa: E402


class Timed:
    """A runner that notes when each judged program comes back."""

    def __init__(self, inner):
        self.inner, self.done = inner, []

    def __enter__(self):
        self.inner.__enter__()
        self.window, self.reduce_slots = self.inner.window, self.inner.reduce_slots
        return self

    def __exit__(self, *exc):
        return self.inner.__exit__(*exc)

    def judge_example(self, e, text):
        f = self.inner.judge_example(e, text)
        f.add_done_callback(lambda _: self.done.append(time.monotonic()))
        return f

    def describe(self):
        return self.inner.describe()

    def warm_rate(self) -> float:
        t = sorted(self.done)
        return 60 * (len(t) - 5) / (t[-1] - t[4]) if len(t) > 6 and t[-1] > t[4] else float("nan")


def one(mode: str, args, corpus: str) -> dict:
    ctx = RunContext(backend=args.backend, device=args.device, jobs=args.jobs, timeout=600, quiet=True)
    opt = CampaignOptions(ctx=ctx, seed=args.seed, frontend=default_frontend(args.backend),
                          max_examples=None if args.time else args.examples, seconds=args.time,
                          corpus=corpus, minimize=False, resume=True if mode == "ray" else None)
    cuda = args.device == "cuda"
    t0 = time.monotonic()
    ray_start = 0.0
    if mode == "ray":
        import ray
        from minimizer.cluster import RayOptions, RayRunner
        gpus = args.gpus_per_actor if args.gpus_per_actor is not None else (1 / args.jobs if cuda else 0.0)
        ray.init(address="local", num_cpus=args.jobs, num_gpus=1 if cuda else 0, include_dashboard=False,
                 log_to_driver=False)
        ray_start = time.monotonic() - t0
        runner = Timed(RayRunner(opt, RayOptions(actors=args.jobs, gpus_per_actor=gpus)))
        s = run_campaign(opt, runner=runner)
        ray.shutdown()
    else:
        runner = Timed(LocalRunner(opt))
        s = run_campaign(opt, runner=runner)
    wall = time.monotonic() - t0
    return {"mode": mode, "programs": s.programs, "judge": s.judge_seconds, "wall": wall, "ray_start": ray_start,
            "warm": runner.warm_rate(),
            "statuses": dict(s.statuses), "findings": sum(s.findings.values())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default="inductor", choices=["inductor", "reference", "nvfuser"])
    ap.add_argument("--device", default="cpu", choices=["cpu", "cuda"])
    ap.add_argument("--examples", type=int, default=40)
    ap.add_argument("--time", type=float, default=None, help="seconds per campaign instead of --examples")
    ap.add_argument("--gpus-per-actor", type=float, default=None, help="default on cuda: 1/jobs of the one GPU")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--jobs", type=int, default=2, help="workers (--jobs) and actors (--ray)")
    ap.add_argument("--repeat", type=int, default=1)
    args = ap.parse_args()
    rows = []
    for rep in range(args.repeat):
        for mode in ("jobs", "ray"):
            with tempfile.TemporaryDirectory() as d:
                r = one(mode, args, d)
            rows.append(r)
            print(f"# run {rep + 1} {mode}: {r}", file=sys.stderr, flush=True)
    budget = f"{args.time:g} s per campaign" if args.time else f"{args.examples} programs"
    print(f"backend {args.backend} ({args.device}), {budget}, seed {args.seed}, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f} at the end\n")
    print("| run | programs | judging s | programs/min (judging) | programs/min (warm) | wall s | "
          "programs/min (wall) | ray start s | findings |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        name = f"--jobs {args.jobs}" if r["mode"] == "jobs" else f"--ray, {args.jobs} actors"
        print(f"| {name} | {r['programs']} | {r['judge']:.1f} | {60 * r['programs'] / r['judge']:.1f} | "
              f"{r['warm']:.1f} | {r['wall']:.1f} | {60 * r['programs'] / r['wall']:.1f} | "
              f"{r['ray_start']:.1f} | {r['findings']} |")


if __name__ == "__main__":
    main()
