#!/usr/bin/env python3
"""Is a refactor behaviour-preserving? Record what fmin produces, then compare two records.

    python3 scripts/behaviour_snapshot.py record OUT [--fmin-root PATH] [--scripts corpus/*.py ...]
    python3 scripts/behaviour_snapshot.py compare OUT_BEFORE OUT_AFTER

``record`` runs, with the fmin found at ``--fmin-root`` (default: this checkout; give a copy of
an older commit to record "before"):
  * ``fmin reduce SCRIPT --backend inductor --device cpu --jobs 1`` under the default property for
    every script given (default: ``corpus/*.py`` and ``corpus/seeds/*.py``), keeping
    ``repro.min.py``, the exit code, what it printed on stderr, and ``report.json`` without the
    fields that measure time or count cache hits;
  * one fuzz campaign with a fixed seed on Inductor/CPU (``--max-examples 40 --seed 5 --jobs 1``,
    with Inductor's test-only relu fault injection so that there are findings to bucket and
    minimize), keeping its summary JSON and every bucket's files without timestamps
    and timings.
``--jobs 1`` and no time limits make both deterministic: the reducer accepts candidates in the
passes' order and the campaign takes results in example order. ``compare`` prints every file that
differs (a unified diff of the first few) and exits 1 if any does.
"""
from __future__ import annotations

import argparse
import difflib
import glob
import json
import os
import shutil
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: report/summary fields that measure time, count cache hits or name temporary paths
VOLATILE = {"seconds", "wall_seconds", "judge_seconds", "programs_per_second", "first_seen", "at", "cache_hits",
            "max_rss", "out_dir", "dir", "recurred", "script"}


def _clean(obj):
    """JSON without volatile fields (recursively)."""
    if isinstance(obj, dict):
        return {k: _clean(v) for k, v in obj.items() if k not in VOLATILE}
    if isinstance(obj, list):
        return [_clean(v) for v in obj]
    return obj


def _fmin(root: str, args: list[str], cwd: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=root)
    return subprocess.run([sys.executable, "-m", "minimizer", *args], cwd=cwd, env=env, capture_output=True,
                          text=True)


def _save_json(path: str, data) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, sort_keys=True, default=str)
        f.write("\n")


def record(out: str, root: str, scripts: list[str]) -> None:
    os.makedirs(out, exist_ok=True)
    work = os.path.join(out, "_work")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for path in scripts:
        name = os.path.splitext(os.path.basename(path))[0]
        local = os.path.join(work, name + ".py")
        shutil.copy(path, local)
        t0 = time.time()
        r = _fmin(root, ["reduce", name + ".py", "--backend", "inductor", "--device", "cpu", "--jobs", "1", "-q",
                         "--out", name + ".fmin"], cwd=work)
        dest = os.path.join(out, "reduce", name)
        os.makedirs(dest, exist_ok=True)
        rep_path = os.path.join(work, name + ".fmin", "report.json")
        if os.path.exists(rep_path):
            with open(rep_path, encoding="utf-8") as f:
                rep = json.load(f)
            _save_json(os.path.join(dest, "report.json"), _clean(rep))
            shutil.copy(os.path.join(work, name + ".fmin", "repro.min.py"), os.path.join(dest, "repro.min.py"))
        with open(os.path.join(dest, "exit.txt"), "w", encoding="utf-8") as f:
            f.write(f"{r.returncode}\n{r.stderr.replace(work, '<work>')}")
        print(f"reduce {name}: exit {r.returncode}, {time.time() - t0:.0f} s", flush=True)
    corpus = os.path.join(work, "findings")
    summary = os.path.join(work, "summary.json")
    t0 = time.time()
    r = _fmin(root, ["fuzz", "--backend", "inductor", "--device", "cpu", "--max-examples", "40", "--seed", "5",
                     "--jobs", "1", "--corpus", "findings", "--summary", "summary.json", "--minimize-time", "600",
                     "--inductor-config", "cpp.inject_relu_bug_TESTING_ONLY=accuracy", "-q"],
              cwd=work)
    dest = os.path.join(out, "fuzz")
    os.makedirs(dest, exist_ok=True)
    with open(os.path.join(dest, "exit.txt"), "w", encoding="utf-8") as f:
        f.write(f"{r.returncode}\n")
    if os.path.exists(summary):
        with open(summary, encoding="utf-8") as f:
            _save_json(os.path.join(dest, "summary.json"), _clean(json.load(f)))
    for bucket in sorted(glob.glob(os.path.join(corpus, "*", "finding.json"))):
        bdir = os.path.dirname(bucket)
        bdest = os.path.join(dest, os.path.basename(bdir))
        os.makedirs(bdest, exist_ok=True)
        for fname in sorted(os.listdir(bdir)):
            src = os.path.join(bdir, fname)
            if fname.endswith(".json"):
                with open(src, encoding="utf-8") as f:
                    _save_json(os.path.join(bdest, fname), _clean(json.load(f)))
            elif fname.endswith(".py"):
                shutil.copy(src, os.path.join(bdest, fname))
    print(f"fuzz: exit {r.returncode}, {time.time() - t0:.0f} s", flush=True)
    shutil.rmtree(work, ignore_errors=True)


def compare(a: str, b: str) -> int:
    def files(root):
        return {os.path.relpath(p, root) for p in glob.glob(os.path.join(root, "**", "*"), recursive=True)
                if os.path.isfile(p)}
    fa, fb = files(a), files(b)
    bad = 0
    for rel in sorted(fa | fb):
        if rel not in fa or rel not in fb:
            print(f"only in {'after' if rel not in fa else 'before'}: {rel}")
            bad += 1
            continue
        with open(os.path.join(a, rel), encoding="utf-8") as f:
            ta = f.read()
        with open(os.path.join(b, rel), encoding="utf-8") as f:
            tb = f.read()
        if ta != tb:
            bad += 1
            print(f"differs: {rel}")
            if bad <= 5:
                sys.stdout.writelines(difflib.unified_diff(ta.splitlines(True), tb.splitlines(True), "before",
                                                           "after", n=2))
    print(f"{len(fa | fb)} files, {bad} differ")
    return 1 if bad else 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("out")
    r.add_argument("--fmin-root", default=HERE)
    r.add_argument("--scripts", nargs="*", default=None)
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    args = ap.parse_args()
    if args.cmd == "compare":
        return compare(args.before, args.after)
    scripts = args.scripts or sorted(glob.glob(os.path.join(HERE, "corpus", "*.py"))) + \
        sorted(glob.glob(os.path.join(HERE, "corpus", "seeds", "*.py")))
    record(os.path.abspath(args.out), os.path.abspath(args.fmin_root), scripts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
