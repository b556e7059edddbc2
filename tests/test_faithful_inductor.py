"""Issue 13 on the CPU: the README's main job (Inductor) ends in a result a maintainer can use —
one connected fusion, no degenerate tensor, and still >= 2 kernels — and the default property of a
script that splits keeps its kernels in one connected fusion. (Every corpus script under the
default property: scripts/bench_faithful.py, table in docs/benchmarks.md.)"""
import os
import re
import shlex
import subprocess
import sys

from conftest import ROOT
from minimizer.oracle.checks.kernels import kernel_count
from minimizer.oracle.outcome import Outcome
from minimizer.program import parse_file
from minimizer.program.edits import tensor_components
from minimizer.program.static import check, degenerate_features


def readme_main_job() -> list[str]:
    text = open(os.path.join(ROOT, "README.md")).read()
    line = next(ln for ln in text.split("```bash", 1)[1].split("```", 1)[0].splitlines() if ln.startswith("fmin "))
    return shlex.split(line.split("#", 1)[0])


def judge(out_dir: str):
    import json
    rep = json.load(open(os.path.join(out_dir, "report.json")))
    p = parse_file(os.path.join(out_dir, "repro.min.py"))
    info = check(p)
    after = rep["outcome_after"]
    o = Outcome(after["status"], rep["backend"], segments=after["segments"], schedulers=after["schedulers"],
                graph=after.get("graph"))
    return rep, p, len(tensor_components(p, info)), degenerate_features(p, info), kernel_count(o)


def test_the_readme_main_job_ends_faithful(tmp_path):
    """Issue 23: the README's main job runs under the default property (what fmin is for: why a
    kernel does not fuse with the one it feeds), and its report draws a connected graph with the
    boundary kept — not two identical nodes without an edge, as `--segments '>=2'` ended."""
    argv = readme_main_job()
    assert argv[:2] == ["fmin", "corpus/rmsnorm_softmax_41.py"] and "--backend" in argv
    assert [a for a in argv if a.startswith("-")] == ["--backend", "--jobs"]   # no property flag: the default
    out = tmp_path / "out"
    r = subprocess.run([sys.executable, "-m", "minimizer", *argv[1:], "--out", str(out), "-q"],
                       capture_output=True, text=True, cwd=ROOT, timeout=1800)
    assert r.returncode == 0, r.stderr
    rep, p, pieces, degenerate, kernels = judge(str(out))
    assert rep["verified"] and rep["ops_after"] < rep["ops_before"]
    assert pieces == 1 and degenerate == {} and kernels >= 2
    assert all(min(a.shape) >= 2 for a in p.inputs if hasattr(a, "shape") and a.shape)   # extents kept >= 2
    assert "a kernel boundary" in rep["property"] and "one connected fusion" in rep["property"]
    md = (out / "report.md").read_text()
    minimized = md.split("### Segments of the minimized script", 1)[1].split("<details>", 1)[0]
    mermaid = minimized.split("```mermaid", 1)[1].split("```", 1)[0]
    assert "-->" in mermaid                          # a kernel feeds another: the graph is connected
    assert "\n- boundary " in minimized               # and the boundary is named under it
