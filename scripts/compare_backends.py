#!/usr/bin/env python3
"""Run scripts on two backends with the same seed and compare their outputs.

Used for the acceptance measurements in docs/ (every corpus script on real nvFuser against the
reference backend, on the same GPU so that both draw the same random inputs):

    python scripts/compare_backends.py --backend nvfuser --against reference --device cuda \\
        --json results.jsonl up/*.py

Prints a Markdown table: status on each backend, segments and schedulers, and whether the
outputs agree within the dtype tolerance of ``minimizer.oracle.compare``.
"""
from __future__ import annotations

import argparse
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from minimizer.backends import RunOptions  # noqa: E402
from minimizer.oracle import Pool, Request  # noqa: E402
from minimizer.oracle.compare import compare  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("scripts", nargs="+")
    ap.add_argument("--backend", default="nvfuser")
    ap.add_argument("--against", default="reference")
    ap.add_argument("--device", default="cuda")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--scale", type=float, default=4.0, help="tolerance multiplier (rounding order differs)")
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--json", help="also write one JSON object per script here")
    args = ap.parse_args()
    reqs = [Request(open(p, encoding="utf-8").read(), os.path.abspath(p), RunOptions(seed=args.seed, want_values=True))
            for p in args.scripts]
    with Pool(args.backend, args.device, jobs=1, timeout=args.timeout) as pa:
        outs_a = [pa.run(r) for r in reqs]
        vals_a = [o.load_values() if o.status == "ok" else None for o in outs_a]
    with Pool(args.against, args.device, jobs=1, timeout=args.timeout) as pb:
        outs_b = [pb.run(r) for r in reqs]
        vals_b = [o.load_values() if o.status == "ok" else None for o in outs_b]
    sink = open(args.json, "w") if args.json else None
    print(f"| script | {args.backend} | segments | schedulers | {args.against} | outputs |")
    print("|---|---|---:|---|---|---|")
    agree = 0
    for path, a, b, va, vb in zip(args.scripts, outs_a, outs_b, vals_a, vals_b):
        if va is not None and vb is not None:
            c = compare(va[1], vb[1], scale=args.scale)
            verdict = "match" if c.ok else f"MISMATCH: {c.first_mismatch}"
            agree += c.ok
            cj = c.to_json()
        else:
            verdict, cj = "–", None
        sa = a.status if a.status == "ok" else f"{a.status}: {a.signature}"
        sb = b.status if b.status == "ok" else f"{b.status}: {b.signature}"
        sch = ", ".join(a.schedulers or []) or "–"
        print(f"| {os.path.basename(path)} | {sa} | {a.segments if a.segments is not None else '–'} | {sch} "
              f"| {sb} | {verdict} |", flush=True)
        if sink:
            sink.write(json.dumps({"file": path, "a": a.to_json(), "b": b.to_json(), "compare": cj}) + "\n")
    print(f"\n{agree} of {len(args.scripts)} scripts: outputs match.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
