"""The segment graph: parsed from real nvFuser 0.2.36 output (segments, crossing tensors, each
segment's expressions, the segmenter's reasons), built from Inductor's scheduler nodes on the CPU,
and the checks and default property that read it."""
import os

import pytest

from conftest import ROOT
from minimizer.backends import get, runner_for
from minimizer.backends.nvfuser_log import rejected_merges, segment_graph_from_dump, short_expr
from minimizer.oracle import Outcome, run_script
from minimizer.oracle.checks.boundary import BoundaryKept
from minimizer.oracle.property import Property
from minimizer.program import parse
from minimizer.program.edits import tensor_components
from minimizer.program.static import check, degenerate_features
from minimizer.segments import SegmentGraph

LOGS = os.path.join(ROOT, "tests", "data", "nvfuser")
NON_KERNEL = get("nvfuser").facts.non_kernel


def graph_of(rel: str) -> SegmentGraph:
    with open(os.path.join(LOGS, rel)) as f:
        text = f.read()
    result = {"status": "ok"}
    runner_for("nvfuser").analyze_log(result, text)
    return SegmentGraph.from_json(result["graph"])


def test_graph_of_a_segment_set_split():
    g = graph_of("logs-0.2.36/segment_set.log")
    assert [s.scheduler for s in g.segments] == ["pointwise", "reduction"] and g.kernels == 2
    assert g.segments[0].exprs == ("T1 = expf(T0)", "T2 = SegmenterSet(T2)".replace("T2)", "T1)"))
    assert g.segments[1].exprs == ("T3 = reduction(T2, op = add)",)
    (e,) = g.edges
    assert (e.producer, e.consumer) == (0, 1) and e.tensor.startswith("T2_g_float")
    (b,) = g.boundaries()
    assert b.kinds == ("pointwise", "reduction") and b.words() == "pointwise → reduction (T2 float[i0, i1])"


def test_non_kernel_segments_are_not_boundaries():
    """Three kernels that share only the input, and a permute evaluated on the host: no kernel
    feeds another."""
    g = graph_of("logs-0.2.36/reduction_and_pointwise_outputs.log")
    assert [s.scheduler for s in g.segments] == ["reduction", "reduction", "pointwise", "expr_eval"]
    assert [s.kernel for s in g.segments] == [True, True, True, False]
    assert len(g.edges) == 1 and g.boundaries() == []
    assert g.words() == "3 kernels [pointwise, reduction×2] + 1 expr_eval"


def test_a_boundary_through_a_non_kernel_segment():
    g = SegmentGraph.from_json({"segments": [{"scheduler": "reduction"}, {"scheduler": "expr_eval", "kernel": False},
                                             {"scheduler": "pointwise"}],
                                "edges": [{"producer": 0, "consumer": 1, "tensor": "T3"},
                                          {"producer": 1, "consumer": 2, "tensor": "T4"}]})
    (b,) = g.boundaries()
    assert b.kinds == ("reduction", "pointwise") and b.via == ("expr_eval",) and b.tensors == ("T3", "T4")


def test_segmenter_reasons_reach_the_boundary():
    g = graph_of("logs-0.2.36-seglog/m.both")
    (b,) = g.boundaries()
    assert b.kinds == ("reduction", "pointwise")
    assert "inner_persistent: not enough registers for persistence" in b.reason
    forced = graph_of("logs-0.2.36-seglog/segment_set.all")
    assert "segment_set" in forced.boundaries()[0].reason


def test_rejected_merges_leave_out_generic_reasons():
    with open(os.path.join(LOGS, "logs-0.2.36-seglog", "m.both")) as f:
        merges = rejected_merges(f.read())
    names, reasons = merges[-1]
    assert names == {"T1", "T2", "T3", "T4"}
    assert set(reasons) == {"reduction", "inner_persistent"}     # not pointwise's "no support for reduction ops"


def test_short_expr():
    assert short_expr("T4_l_float[iS8{64}, iS9{i1}]  = T0_g_float[iS22{64}, iS1{i1}]  - T2_l_float[iS24{64}, bS5{1}];") \
        == "T4 = T0 - T2"


def test_mermaid_has_one_node_per_segment_and_the_edges():
    m = graph_of("logs-0.2.36/reduction_and_pointwise_outputs.log").mermaid()
    assert m.startswith("flowchart TD")
    assert m.count('"]') == 3 and m.count('")') == 1      # three kernels, one rounded non-kernel node
    assert 's2 -->|"T5 float[i0, i1, i2]"| s3' in m


# ---------------------------------------------------------------- checks and the default property
def nvf(graph: SegmentGraph) -> Outcome:
    return Outcome("ok", "nvfuser", segments=len(graph.segments), schedulers=[s.scheduler for s in graph.segments],
                   graph=graph.to_json())


def test_boundary_check_keeps_the_kind_not_the_count():
    orig = nvf(graph_of("logs-0.2.36-seglog/m.both"))
    k = BoundaryKept(None).bind(orig)
    (kind,) = k.kinds
    assert kind[:2] == ("reduction", "pointwise") and "inner_persistent: not enough registers" in kind[2]
    assert k.holds(orig)[0]
    # the same kinds of kernel split for another reason is another cause: not kept
    other_reason = SegmentGraph.from_json({**orig.graph, "rejections": [
        {"producer": 0, "consumer": 1, "reason": "reduction: Un-mapped multi-reduction: T? and T?"}]})
    held, why = k.holds(nvf(other_reason))
    assert not held and "Un-mapped multi-reduction" in why
    assert BoundaryKept.parse("reduction:pointwise").holds(nvf(other_reason))[0]   # the flag names kinds only
    other = nvf(graph_of("logs-0.2.36/segment_set.log"))       # pointwise → reduction: another boundary
    held, why = k.holds(other)
    assert not held and "no boundary reduction → pointwise" in why
    assert not k.holds(nvf(graph_of("logs-0.2.36/reduction_and_pointwise_outputs.log")))[0]


def test_default_property_of_a_segmented_original():
    orig = nvf(graph_of("logs-0.2.36-seglog/m.both"))
    p = Property.from_outcome(orig, connected=True)
    assert [c.name for c in p.checks] == ["status", "connected", "boundary"] and p.interesting
    # kernels that share only an input keep their count instead
    q = Property.from_outcome(nvf(graph_of("logs-0.2.36/reduction_and_pointwise_outputs.log")), connected=True)
    assert [c.name for c in q.checks] == ["status", "connected", "kernels"] and q.checks[2].n == 3
    # ... and their schedulers: two reductions over other axes are not met by any two kernels
    k = q.checks[2]
    assert k.kinds == ("pointwise", "reduction", "reduction") and "[pointwise, reduction×2]" in k.describe()
    def run(*schedulers):
        return Outcome("ok", "nvfuser", segments=len(schedulers), schedulers=list(schedulers))
    held, why = k.holds(run("pointwise", "pointwise", "reduction", "expr_eval"))
    assert not held and "expected [pointwise, reduction×2]" in why
    assert k.holds(run("reduction", "expr_eval", "pointwise", "reduction"))[0]   # order and non-kernels aside
    assert Property.from_json(q.to_json()) == q
    # one kernel: nothing to reduce by default
    one = Outcome("ok", "nvfuser", segments=2, schedulers=["pointwise", "expr_eval"],
                  graph={"segments": [{"scheduler": "pointwise"}, {"scheduler": "expr_eval", "kernel": False}]})
    assert not Property.from_outcome(one, connected=True).interesting
    assert not Property.from_outcome(Outcome("ok", "reference")).interesting


TWO_PIECES = """
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion(fd: FusionDefinition) -> None:
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    tv1 = fd.define_tensor(shape=[-1], contiguity=[True], dtype=DataType.Float)
    c2 = fd.define_scalar(2.0, dtype=DataType.Double)
    tv2 = fd.ops.mul(tv0, c2)
    tv3 = fd.ops.mul(tv1, c2)
    tv4 = fd.ops.sum(tv0, dims=[0, 1])
    fd.add_output(tv2)
    fd.add_output(tv3)
    fd.add_output(tv4)

with FusionDefinition() as fd:
    fusion(fd)
inputs = [torch.randn(4, 8, device="cuda"), torch.randn(0, device="cuda")]
fd.execute(inputs)
"""


def test_pieces_are_joined_by_tensors_not_by_shared_scalars():
    p = parse(TWO_PIECES)
    info = check(p)
    parts = tensor_components(p, info)
    assert len(parts) == 2      # tv0's piece (mul, sum) and tv1's; the shared constant joins nothing
    feats = degenerate_features(p, info)
    assert set(feats) == {"zero-element", "0-d"} and feats["zero-element"].startswith("tv1")


def test_inductor_graph_names_the_script_values(tmp_path):
    script = tmp_path / "two_reductions.py"
    script.write_text(TWO_PIECES.replace("tv3 = fd.ops.mul(tv1, c2)", "tv3 = fd.ops.sum(tv2, dims=[0])")
                      .replace("    fd.add_output(tv2)\n", "").replace(
                          'torch.randn(0, device="cuda")', 'torch.randn(3, device="cuda")'))
    o = run_script(str(script), backend="inductor", device="cpu", timeout=280)
    assert o.ok, o.message
    g = o.segment_graph
    assert g is not None and g.kernels == o.segments
    assert any("sum(" in e for s in g.segments for e in s.exprs)
    assert all(e.tensor.startswith("tv") or e.tensor.startswith("buf") for e in g.edges)
