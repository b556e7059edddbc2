#!/usr/bin/env python3
"""Is each reduction under the DEFAULT property faithful? (issue 13)

Reduces every given script that splits into >= 2 kernels on BACKEND with `fmin reduce` and no
property flags, then judges each result as a maintainer would: one connected fusion, no
zero-element / 0-d / all-broadcast tensor the original did not have, >= 2 kernel segments, and a
kernel boundary (two kernels joined by an intermediate tensor) where the original had one, with
nvFuser's reason when it gave one. Prints a Markdown table (one row per script).

    python3 scripts/bench_faithful.py --backend inductor --device cpu corpus/*.py corpus/seeds/*.py
    python3 scripts/bench_faithful.py --backend nvfuser --jobs 3 --parallel 4 up/*.py     # on the H200

    python3 scripts/bench_faithful.py --readme --device cpu     # the README's main job, as the README gives it

Scripts whose original runs as one kernel are listed as "nothing to reduce" (fmin says so and
exits 1). Existing out dirs are reused (a run resumes): pass --fresh to start over. The "drawn"
column says whether report.md draws the minimized segments connected (an edge in its Mermaid
graph) with the boundary named under it.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def judge(out_dir: str) -> dict:
    from minimizer.oracle.checks.kernels import kernel_count
    from minimizer.oracle.outcome import Outcome
    from minimizer.program import parse_file
    from minimizer.program.edits import tensor_components
    from minimizer.program.static import check, degenerate_features
    rep = json.load(open(os.path.join(out_dir, "report.json")))
    p = parse_file(os.path.join(out_dir, "repro.min.py"))
    info = check(p)
    after = rep.get("outcome_after") or {}
    before = rep.get("outcome_before") or {}
    o = Outcome(after.get("status", "?"), rep["backend"], segments=after.get("segments"),
                schedulers=after.get("schedulers"), graph=after.get("graph"))
    b = Outcome(before.get("status", "?"), rep["backend"], graph=before.get("graph"),
                segments=before.get("segments"), schedulers=before.get("schedulers"))
    g, gb = o.segment_graph, b.segment_graph
    bounds = g.boundaries() if g else []
    return {"ops": f"{rep['ops_before']} → {rep['ops_after']}", "calls": rep["oracle_calls"],
            "seconds": rep.get("wall_seconds", rep["seconds"]),
            "pieces": len(tensor_components(p, info)),
            "degenerate": ", ".join(sorted(degenerate_features(p, info))) or "none",
            "kernels": f"{kernel_count(b)} → {kernel_count(o)}",
            "boundary": "; ".join(x.words() + (f" — {x.reason}" if x.reason else "") for x in bounds[:2]) or
                        ("none (the original has none)" if gb is not None and not gb.boundaries() else "none"),
            "verified": rep.get("verified"), "property": rep["property"], "drawn": drawn(out_dir)}


def drawn(out_dir: str) -> bool:
    """report.md draws the minimized script's kernels connected (an edge) and names a boundary."""
    try:
        md = open(os.path.join(out_dir, "report.md"), encoding="utf-8").read()
        minimized = md.split("### Segments of the minimized script", 1)[1].split("<details>", 1)[0]
        mermaid = minimized.split("```mermaid", 1)[1].split("```", 1)[0]
    except (OSError, IndexError):
        return False
    return "-->" in mermaid and "\n- boundary " in minimized


def readme_main_job() -> tuple[str, str, int]:
    """The script, backend and --jobs of the README's main job (its first ``fmin`` command line)."""
    import shlex
    text = open(os.path.join(ROOT, "README.md"), encoding="utf-8").read()
    line = next(ln for ln in text.split("```bash", 1)[1].split("```", 1)[0].splitlines() if ln.startswith("fmin "))
    argv = shlex.split(line.split("#", 1)[0])
    return (os.path.join(ROOT, argv[1]), argv[argv.index("--backend") + 1],
            int(argv[argv.index("--jobs") + 1]) if "--jobs" in argv else 1)


def reduce_one(path: str, args) -> dict:
    name = os.path.splitext(os.path.basename(path))[0]
    out = os.path.join(args.out, name)
    if args.fresh and os.path.isdir(out):
        shutil.rmtree(out)
    cmd = [sys.executable, "-m", "minimizer", "reduce", path, "--backend", args.backend, "--jobs", str(args.jobs),
           "--out", out, "-q"] + (["--device", args.device] if args.device else []) + \
          (["--max-time", str(args.max_time)] if args.max_time else [])
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    row = {"script": os.path.basename(path), "rc": r.returncode, "wall": round(time.perf_counter() - t0, 1)}
    if r.returncode == 1 and "nothing to reduce" in r.stderr:
        row["note"] = "nothing to reduce (one kernel)"
    elif r.returncode not in (0, 130):
        row["note"] = (r.stderr.strip().splitlines() or ["?"])[-1][:160]
    if os.path.exists(os.path.join(out, "report.json")) and "note" not in row:
        row.update(judge(out))
    return row


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("scripts", nargs="*")
    ap.add_argument("--readme", action="store_true", help="the README's main job: its script, --backend and --jobs")
    ap.add_argument("--backend", default="inductor")
    ap.add_argument("--device", default=None)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--parallel", type=int, default=1, help="reductions at a time")
    ap.add_argument("--max-time", type=float, default=None)
    ap.add_argument("--out", default="/tmp/fmin-faithful")
    ap.add_argument("--fresh", action="store_true")
    args = ap.parse_args()
    if args.readme:
        script, args.backend, args.jobs = readme_main_job()
        args.scripts = [script]
    if not args.scripts:
        ap.error("give scripts, or --readme")
    os.makedirs(args.out, exist_ok=True)
    with ThreadPoolExecutor(max_workers=max(1, args.parallel)) as ex:
        rows = list(ex.map(lambda p: reduce_one(p, args), args.scripts))
    cols = ["script", "ops", "kernels", "pieces", "degenerate", "boundary", "drawn", "calls", "wall", "verified"]
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for r in rows:
        if "note" in r:
            print(f"| {r['script']} | {r['note']} |" + " |" * (len(cols) - 2))
        else:
            print("| " + " | ".join(str(r.get(c, "")) for c in cols) + " |")
    json.dump(rows, open(os.path.join(args.out, "rows.json"), "w"), indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
