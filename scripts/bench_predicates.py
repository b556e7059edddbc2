#!/usr/bin/env python3
"""The reducer under two shell-style predicates (issue 13), with Python judges so that it runs in
seconds on the CPU; prints a Markdown table.

    python3 scripts/bench_predicates.py [--jobs N]

Cases (``CASES``):

(a) ``corpus/seeds/layernorm_bwd_segmented.py`` under **two sums**: the candidate reads back
    (fmin's reader), runs on the reference interpreter on ``meta`` tensors (fmin's static check:
    arguments, shapes, dtypes, nvFuser's broadcast rule) and has at least two ``fd.ops.sum``
    statements. Hand-minimal: two sums of one input, both outputs (2 ops).
(b) ``corpus/rmsnorm_softmax_41.py`` under **two dependent reductions**: reads back, passes the
    static check, and some reduction (an op of the catalog's ``reduction`` family: sum, prod, max,
    min, var, var_mean, welford) reads, through any chain of statements, the result of another
    reduction.

The judges are what ``bench_interesting.py`` is to ``bench_reduce.py`` (a well-formedness check
plus a pattern), without a process per call; "oracle calls" are the candidates judged (cache hits
not counted). The final script is then run once on the reference backend (``fmin check``, real
tensors, a worker process) to show that it runs.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from minimizer.ops import lookup  # noqa: E402
from minimizer.program import edits, parse, parse_file, static  # noqa: E402
from minimizer.reduce.driver import Reducer, Verdict  # noqa: E402


def _well_formed(text: str):
    """The program, if the text reads back and passes the static check; else None."""
    try:
        program = parse(text)
        static.check(program)
    except Exception:  # FusionError from the static check, or the reader's own: not a fusion script
        return None
    return program


def two_sums(text: str) -> bool:
    """(a): well-formed and at least two ``fd.ops.sum`` statements."""
    p = _well_formed(text)
    return p is not None and sum(1 for s in p.stmts if s.op == "sum") >= 2


def _is_reduction(s) -> bool:
    spec = lookup(s.call) if s.is_op else None
    return spec is not None and spec.family == "reduction"


def dependent_reductions(text: str) -> bool:
    """(b): well-formed and a reduction whose input depends on another reduction's output."""
    p = _well_formed(text)
    if p is None:
        return False
    prods = edits.producers(p)
    reds = {i for i, s in enumerate(p.stmts) if _is_reduction(s)}
    for r in reds:
        seen, todo = set(), list(prods[r])
        while todo:
            k = todo.pop()
            if k in reds:
                return True
            if k not in seen:
                seen.add(k)
                todo.extend(prods[k])
    return False


CASES = [
    ("corpus/seeds/layernorm_bwd_segmented.py", "two sums", two_sums),
    ("corpus/rmsnorm_softmax_41.py", "two dependent reductions", dependent_reductions),
]


def judge_of(pred):
    return lambda texts: [Verdict(pred(t)) for t in texts]


def reduce_case(path: str, pred, jobs: int = 1):
    """The reducer's ``Result`` for one case."""
    return Reducer(parse_file(os.path.join(ROOT, path)), judge_of(pred), jobs=jobs).run()


def runs_on_reference(text: str) -> str:
    with tempfile.TemporaryDirectory() as d:
        f = os.path.join(d, "repro.min.py")
        with open(f, "w") as fh:
            fh.write(text)
        r = subprocess.run([sys.executable, "-m", "minimizer", "check", f, "--backend", "reference", "--device", "cpu"],
                           cwd=ROOT, capture_output=True, text=True)
    return "ok" if r.returncode == 0 else f"exit {r.returncode}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    print("| case | predicate | ops before | ops after | inputs after | outputs after | oracle calls | cache hits "
          "| seconds | final ops | final runs on reference |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for path, name, pred in CASES:
        before = parse_file(os.path.join(ROOT, path))
        t0 = time.perf_counter()
        res = reduce_case(path, pred, args.jobs)
        secs = time.perf_counter() - t0
        ops, ins, outs = edits.size(res.program)
        final = ", ".join(s.op for s in res.program.op_stmts())
        print(f"| `{path}` | {name} | {before.n_ops()} | {ops} | {ins} | {outs} | {res.tests} | {res.cache_hits} "
              f"| {secs:.1f} | {final} | {runs_on_reference(res.text)} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
