"""Peak memory of a reference run with and without freeing dead values, against fmin's estimate.

    python3 scripts/bench_memory.py [--mb 256] [--ops 8]

Builds a script whose input is a float32 tensor of about ``--mb`` MB followed by a chain of
``--ops`` elementwise ops (each result read by the next only), and measures the peak resident
set (``ru_maxrss``) of

* ``worker``: a fresh reference worker (``oracle.pool``) running the script, as fmin runs it
  (dead values freed: ``interpret.last_uses``);
* ``keep``: the same run in a fresh process with ``interpret.FREE_DEAD_VALUES = False`` (every
  intermediate kept, as before issue 14);
* ``free``: the same process path with freeing on;
* ``empty``: a fresh worker running the script on a tiny input (the worker's own footprint).

and prints them next to ``program.memory``'s estimate of the run (which the estimate adds to a
worker's footprint, the reference backend's ``Facts.worker_bytes``). Timing is not measured.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

OPS = ["exp", "neg", "abs", "sin", "cos", "tanh", "sigmoid", "relu", "exp", "neg", "abs", "sin"]


def script(rows: int, cols: int, ops: int) -> str:
    lines = ["import torch", "from nvfuser_direct import FusionDefinition, DataType", "",
             "def nvfuser_fusion(fd : FusionDefinition) -> None :",
             "    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)"]
    for k in range(ops):
        lines.append(f"    tv{k + 1} = fd.ops.{OPS[k % len(OPS)]}(tv{k})")
    lines += [f"    fd.add_output(tv{ops})", "", "with FusionDefinition() as fd:", "    nvfuser_fusion(fd)", "",
              "inputs = [", f"    torch.ones(({rows}, {cols}), dtype=torch.float32, device='cuda:0'),", "]",
              "fd.execute(inputs)", ""]
    return "\n".join(lines)


CHILD = r"""
import json, resource, sys
sys.path.insert(0, {root!r})
import minimizer.program.interpret as interpret
interpret.FREE_DEAD_VALUES = {free}
from minimizer.backends import RunOptions
from minimizer.backends import runner_for
r = runner_for("reference").run_script(sys.stdin.read(), "bench.py", "cpu", RunOptions(), None)
print(json.dumps({{"status": r["status"], "max_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}}))
"""


def in_process(text: str, free: bool) -> int:
    r = subprocess.run([sys.executable, "-c", CHILD.format(root=ROOT, free=free)], input=text, capture_output=True,
                       text=True, check=True)
    d = json.loads(r.stdout.strip().splitlines()[-1])
    assert d["status"] == "ok", d
    return d["max_rss"]


def in_worker(text: str) -> int:
    from minimizer.oracle.pool import run_script
    o = run_script(text, backend="reference", device="cpu", path="bench.py")
    assert o.ok, o.message
    return o.max_rss


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--mb", type=int, default=256)
    ap.add_argument("--ops", type=int, default=8)
    a = ap.parse_args()
    from minimizer.backends import get
    from minimizer.program import parse
    from minimizer.program.memory import estimate
    from minimizer.program.static import check
    cols = 4096
    rows = max(1, a.mb * (1 << 20) // (4 * cols))
    text = script(rows, cols, a.ops)
    prog = parse(text, "bench.py")
    est = estimate(prog, check(prog).values)
    empty = in_worker(script(2, 2, a.ops))
    rows_out = [("empty (worker footprint)", empty, None),
                ("keep every intermediate", in_process(text, False), None),
                ("free after last use", in_process(text, True), None),
                ("worker (as fmin runs it)", in_worker(text), est.peak + get("reference").facts.worker_bytes)]
    mib = 1 << 20
    print(f"input {rows}x{cols} float32 = {rows * cols * 4 / mib:.0f} MiB, {a.ops} chained elementwise ops; "
          f"estimated run peak {est.peak / mib:.0f} MiB (+ {get('reference').facts.worker_bytes / mib:.0f} MiB worker)")
    print("| run | peak RSS (MiB) | above empty worker (MiB) | fmin's estimate incl. worker (MiB) |")
    print("|---|---:|---:|---:|")
    for name, rss, e in rows_out:
        print(f"| {name} | {rss / mib:.0f} | {(rss - empty) / mib:.0f} | {'' if e is None else f'{e / mib:.0f}'} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
