"""What nvFuser's dumps cost per program: generated programs and seeded ones (mutants of given
seeds, trimmed), each compiled and run once under each ``NVFUSER_DUMP`` setting (issue 25: a
seeded program took 3.7x a generated one's slot time on the H100).

    python scripts/bench_nvfuser_dump.py [--seeds corpus/seeds/layernorm_bwd_segmented.py ...] \\
        [--n 12] [--dumps "segmented_fusion,segmenter_logging" "segmented_fusion" ""] [--json out.json]

Each setting runs every program in one fresh Python process (nvFuser imported once; its fusion
cache never sees the same program twice) with the dump written to a file, as a worker's
captured stdout is, and ``NVFUSER_DISABLE=parallel_compile`` as fmin's workers have it. A
program is its printed script (``to_source``) executed as ``python repro.py`` would; errors are
counted, not timed apart. The table: seconds per program and dump bytes per program, by group
and setting. Needs a GPU and nvFuser (``source .nvf/activate.sh 210`` on the lent machine).
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
DEFAULT_SEEDS = ["corpus/seeds/layernorm_bwd_segmented.py", "corpus/rmsnorm_softmax_41.py",
                 "corpus/rope_qkv_split.py", "corpus/direct_rmsnorm_fwd.py"]

#: the frontend nvFuser 0.2.36 has (legacy seeds are upgraded to it, as a campaign there does)
FRONTEND = "nvfuser_direct"

RUNNER = r"""
import json, sys, time, traceback
import torch
from nvfuser_direct import DataType, FusionDefinition
with FusionDefinition() as fd:   # the first compile's warm-up, before the clock
    t0 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
    fd.add_output(fd.ops.neg(t0))
fd.execute([torch.randn(8, device="cuda")])
paths, out = sys.argv[1:-1], sys.argv[-1]
rows = []
for p in paths:
    src = open(p).read()
    t = time.perf_counter()
    ok = True
    try:
        exec(compile(src, p, "exec"), {"__name__": "__main__"})
        torch.cuda.synchronize()
    except Exception:
        ok = False
    rows.append({"path": p, "seconds": time.perf_counter() - t, "ok": ok})
json.dump(rows, open(out, "w"))
"""


def programs(seeds: list[str], n: int, campaign_seed: int) -> dict[str, list[str]]:
    """Group -> printed scripts: ``n`` generated programs and ``n`` trimmed mutants per seed."""
    sys.path.insert(0, ROOT)
    from minimizer.fuzz.sources import generate, seeded
    from minimizer.program import to_source
    out: dict[str, list[str]] = {"generated": []}
    k = 0
    while len(out["generated"]) < n:
        out["generated"] += [to_source(e.program) for e in generate.chunk(campaign_seed, k, frontend=FRONTEND)
                             ][: n - len(out["generated"])]
        k += 1
    for s in seeds:
        got, k = [], 0
        while len(got) < n and k < 20:
            got += [to_source(e.program) for e in seeded.chunk(campaign_seed, k, [s], frontend=FRONTEND)
                    if not e.large or "trim" in e.mutations][: n - len(got)]
            k += 1
        out[os.path.basename(s)] = got
    return out


def run(groups: dict[str, list[str]], dump: str, scratch: str) -> dict[str, dict]:
    paths, group_of = [], {}
    for g, srcs in groups.items():
        for i, src in enumerate(srcs):
            p = os.path.join(scratch, f"{g}.{i}.py")
            with open(p, "w") as f:
                f.write(src)
            paths.append(p)
            group_of[p] = g
    res = os.path.join(scratch, "rows.json")
    log = os.path.join(scratch, f"dump.{dump or 'none'}.log")
    env = {**os.environ, "NVFUSER_DISABLE": "parallel_compile"}
    env.pop("NVFUSER_DUMP", None)
    if dump:
        env["NVFUSER_DUMP"] = dump
    # one log per program would need one process each; bytes are apportioned by program instead
    with open(log, "wb") as f:
        subprocess.run([sys.executable, "-c", RUNNER, *paths, res], stdout=f, stderr=subprocess.STDOUT,
                       env=env, check=False, timeout=1800)
    rows = json.load(open(res))
    size = os.path.getsize(log)
    out: dict[str, dict] = {}
    for r in rows:
        g = out.setdefault(group_of[r["path"]], {"n": 0, "seconds": 0.0, "errors": 0})
        g["n"] += 1
        g["seconds"] += r["seconds"]
        g["errors"] += not r["ok"]
    for g in out.values():
        g["per_program"] = g["seconds"] / max(1, g["n"])
    out["_log_bytes"] = size
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", nargs="*", default=DEFAULT_SEEDS)
    ap.add_argument("--n", type=int, default=12)
    ap.add_argument("--seed", type=int, default=2031)
    ap.add_argument("--dumps", nargs="*", default=["segmented_fusion,segmenter_logging", "segmented_fusion", ""])
    ap.add_argument("--json")
    a = ap.parse_args(argv)
    groups = programs(a.seeds, a.n, a.seed)
    results = {}
    for d in a.dumps:
        with tempfile.TemporaryDirectory(prefix="fmin-dump-") as scratch:
            t = time.perf_counter()
            results[d or "none"] = run(groups, d, scratch)
            results[d or "none"]["_wall"] = time.perf_counter() - t
    names = list(groups)
    print("| group | programs | " + " | ".join(f"s/program `{d or 'none'}`" for d in a.dumps) + " |")
    print("|---|---|" + "---|" * len(a.dumps))
    for g in names:
        cells = [f"{results[d or 'none'][g]['per_program']:.3f} ({results[d or 'none'][g]['errors']} err)"
                 for d in a.dumps]
        print(f"| {g} | {len(groups[g])} | " + " | ".join(cells) + " |")
    print("| dump bytes (all programs) | | " + " | ".join(f"{results[d or 'none']['_log_bytes']:,}" for d in a.dumps) + " |")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
