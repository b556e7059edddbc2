#!/usr/bin/env python3
"""Oracle overhead: the worker pool against a fresh ``python script.py`` per candidate.

For a 20-op and a 100-op fusion (generated here, each candidate a slightly different script so
that no cache can answer), per backend: candidates per second through a warm ``Pool`` and
through a fresh process each, the mean time nvFuser/Inductor/eager spent inside ``fd.execute``
(compile + run: the part no harness can save), and the pool's overhead per candidate
(wall time per candidate minus that execute time) as a share of it.

    python scripts/bench_oracle.py --backend reference --device cpu -n 10
    python scripts/bench_oracle.py --backend nvfuser inductor --device cuda -n 20   # on the H200

Prints a Markdown table.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from minimizer.oracle import Pool, Request  # noqa: E402

_UNARY = ["exp", "neg", "abs", "sigmoid", "tanh", "relu"]


def fusion(n_ops: int, variant: int, frontend: str = "nvfuser_direct") -> str:
    """A realistic mix: pointwise chains, a row reduction broadcast back, every 7th op a reduction.
    ``variant`` changes a constant so every candidate is a distinct program."""
    lines = ["    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)",
             "    tv1 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)"]
    cur, k = "tv1", 2
    for i in range(n_ops):
        name = f"tv{k}"
        if i % 7 == 6:
            lines.append(f"    {name} = fd.ops.sum({cur}, dims=[1], keepdim=True)")
            k += 1
            nxt = f"tv{k}"
            lines.append(f"    {nxt} = fd.ops.sub(tv0, {name})")
            name = nxt
        elif i % 3 == 0:
            lines.append(f"    {name} = fd.ops.mul({cur}, {1.0 + variant * 1e-3 + i * 1e-4!r})")
        elif i % 3 == 1:
            lines.append(f"    {name} = fd.ops.add({cur}, tv0)")
        else:
            lines.append(f"    {name} = fd.ops.{_UNARY[i % len(_UNARY)]}({cur})")
        cur = name
        k += 1
    lines.append(f"    fd.add_output({cur})")
    return ("import torch\nfrom nvfuser_direct import FusionDefinition, DataType\n\n"
            "def nvfuser_fusion(fd : FusionDefinition) -> None :\n" + "\n".join(lines) + "\n\n"
            "with FusionDefinition() as fd:\n    nvfuser_fusion(fd)\n\n"
            "inputs = [\n"
            "    torch.testing.make_tensor((1024, 1024), dtype=torch.float32, device='cuda:0'),\n"
            "    torch.testing.make_tensor((1024, 1024), dtype=torch.float32, device='cuda:0'),\n"
            "]\nfd.execute(inputs)\n")


def bench_pool(backend: str, device: str, n_ops: int, n: int) -> dict:
    t_start = time.perf_counter()
    with Pool(backend, device, jobs=1, timeout=600) as pool:
        warm = pool.run(Request(fusion(n_ops, 10_000), "warm.py"))  # start + first compile, not timed below
        started = time.perf_counter() - t_start
        walls, execs = [], []
        for v in range(n):
            t0 = time.perf_counter()
            o = pool.run(Request(fusion(n_ops, v), f"cand{v}.py"))
            walls.append(time.perf_counter() - t0)
            if o.status != "ok":
                raise SystemExit(f"{backend}: candidate failed: {o.signature}\n{o.message}")
            execs.append(o.execute_seconds or 0.0)
    return {"start": started, "warm_status": warm.status, "wall": statistics.mean(walls),
            "exec": statistics.mean(execs), "segments": o.segments}


def bench_fresh(backend: str, device: str, n_ops: int, n: int) -> dict:
    """``python script.py`` in a new process per candidate: the way people test by hand, and what
    C-Reduce-style reducers do. For reference/inductor the script needs fmin's FusionDefinition,
    so the process runs ``python -m minimizer.backends.run_one``-like code via the worker module."""
    walls = []
    with tempfile.TemporaryDirectory() as d:
        for v in range(n):
            path = os.path.join(d, f"cand{v}.py")
            with open(path, "w") as f:
                f.write(fusion(n_ops, v))
            env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
            if backend == "nvfuser":
                cmd = [sys.executable, path]
            else:
                cmd = [sys.executable, "-c",
                       "import sys; from minimizer.backends import RunOptions, runner_for; b = runner_for(sys.argv[1]);"
                       "b.warm(sys.argv[2]); r = b.run_script(open(sys.argv[3]).read(), sys.argv[3], sys.argv[2],"
                       " RunOptions(), None);"
                       "sys.exit(0 if r['status'] == 'ok' else 1)", backend, device, path]
            t0 = time.perf_counter()
            r = subprocess.run(cmd, env=env, capture_output=True, text=True)
            walls.append(time.perf_counter() - t0)
            if r.returncode != 0:
                raise SystemExit(f"fresh {backend} failed:\n{r.stderr[-2000:]}")
    return {"wall": statistics.mean(walls)}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--backend", nargs="+", default=["reference"])
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--ops", nargs="+", type=int, default=[20, 100])
    ap.add_argument("-n", type=int, default=10, help="candidates per measurement")
    ap.add_argument("--fresh-n", type=int, default=3, help="candidates for the fresh-process baseline")
    args = ap.parse_args()
    print("| backend | ops | segments | worker start (s) | pool: s/candidate | cand/s | in fd.execute (s) "
          "| pool overhead (s) | overhead / execute | fresh process: s/candidate | speed-up |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for backend in args.backend:
        for n_ops in args.ops:
            p = bench_pool(backend, args.device, n_ops, args.n)
            f = bench_fresh(backend, args.device, n_ops, args.fresh_n)
            over = p["wall"] - p["exec"]
            share = f"{100 * over / p['exec']:.1f}%" if p["exec"] > 0 else "n/a"
            print(f"| {backend} | {n_ops} | {p['segments']} | {p['start']:.1f} | {p['wall']:.3f} | {1 / p['wall']:.1f} "
                  f"| {p['exec']:.3f} | {over:.3f} | {share} | {f['wall']:.2f} | {f['wall'] / p['wall']:.1f}x |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
