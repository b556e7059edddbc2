"""Issue 13 on the CPU: a reduction under the default property ends in a result a maintainer can
use — one connected fusion, no degenerate tensor, still >= 2 kernels, the boundary kept and drawn —
and the README's main job is such a reduction. The main job itself (41 ops, minutes) is a
benchmark: ``python3 scripts/bench_faithful.py --readme`` (every corpus script: table in
docs/benchmarks.md); here a 5-op fusion that Inductor splits at the same kind of boundary."""
import json
import os
import shlex

from conftest import ROOT, fmin_here
from minimizer.oracle.checks.kernels import kernel_count
from minimizer.oracle.outcome import Outcome
from minimizer.program import parse_file
from minimizer.program.edits import tensor_components
from minimizer.program.static import check, degenerate_features

#: an outer sum broadcast back onto its input: two kernels on Inductor (CPU), reduction → pointwise
SPLITS = """import torch
from nvfuser_direct import FusionDefinition, DataType

def nvfuser_fusion(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.neg(T0)
    T2 = fd.ops.sum(T1, dims=[0], keepdim=False, dtype=DataType.Null)
    T3 = fd.ops.broadcast_in_dim(T2, shape=[8, 2], broadcast_dims=[1])
    T4 = fd.ops.add(T1, T3)
    T5 = fd.ops.exp(T4)
    fd.add_output(T5)

with FusionDefinition() as fd:
    nvfuser_fusion(fd)

inputs = [
    torch.testing.make_tensor((8, 2), dtype=torch.float32, device='cuda:0'),
]
fd.execute(inputs)
"""


def readme_main_job() -> list[str]:
    text = open(os.path.join(ROOT, "README.md")).read()
    line = next(ln for ln in text.split("```bash", 1)[1].split("```", 1)[0].splitlines() if ln.startswith("fmin "))
    return shlex.split(line.split("#", 1)[0])


def judge(out_dir: str):
    rep = json.load(open(os.path.join(out_dir, "report.json")))
    p = parse_file(os.path.join(out_dir, "repro.min.py"))
    info = check(p)
    after = rep["outcome_after"]
    o = Outcome(after["status"], rep["backend"], segments=after["segments"], schedulers=after["schedulers"],
                graph=after.get("graph"))
    return rep, p, len(tensor_components(p, info)), degenerate_features(p, info), kernel_count(o)


def test_the_readme_main_job_is_a_reduction_under_the_default_property():
    """Issue 23: the README's main job runs under the default property (what fmin is for: why a
    kernel does not fuse with the one it feeds): no property flag."""
    argv = readme_main_job()
    assert argv[:2] == ["fmin", "corpus/rmsnorm_softmax_41.py"] and "--backend" in argv
    assert [a for a in argv if a.startswith("-")] == ["--backend", "--jobs"]   # no property flag: the default
    assert argv[argv.index("--backend") + 1] == "inductor"


def test_a_default_reduction_on_inductor_keeps_its_boundary_and_draws_it(tmp_path, capfd):
    """Its report draws a connected graph with the boundary kept — not two identical nodes without
    an edge, as `--segments '>=2'` ended."""
    script, out = tmp_path / "splits.py", tmp_path / "out"
    script.write_text(SPLITS)
    r = fmin_here(capfd, str(script), "--backend", "inductor", "--device", "cpu", "--jobs", "2", "--out", str(out),
                  "-q")
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
