"""The report a maintainer receives: a golden ``report.md`` built from plain data (a segmented
nvFuser result with its boundary's reason, and a wrong result with its worst elements), and its
structure as a Markdown renderer (markdown-it, what rich uses) sees it: the summary heading first,
the script, the before/after table, the segment graph as a Mermaid block, how it was made and the
environment of the confirming run."""
import os

from markdown_it import MarkdownIt

from conftest import ROOT
from minimizer import backends, report
from minimizer.backends.nvfuser_log import attach_rejections, segment_graph_from_dump

GOLDEN = os.path.join(ROOT, "tests", "data", "report")
LOG = os.path.join(ROOT, "tests", "data", "nvfuser", "logs-0.2.36-seglog", "m.both")
SCRIPT = """# Minimized by fmin 0.1.0: fmin m.py --backend nvfuser
import torch
from nvfuser_direct import FusionDefinition, DataType

def fusion(fd: FusionDefinition) -> None:
    tv0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float)
    tv1 = fd.ops.sum(tv0, dims=[1])
    tv2 = fd.ops.broadcast(tv1, [False, True])
    tv3 = fd.ops.sub(tv0, tv2)
    tv4 = fd.ops.exp(tv3)
    fd.add_output(tv4)
"""
ENV = {"backend": "nvfuser", "gpu": "NVIDIA H200", "torch": "2.11.0+cu130", "nvfuser_direct": "0.2.36+git7e04d26",
       "device": "cuda", "options": {"NVFUSER_DISABLE": "parallel_compile",
                                     "NVFUSER_DUMP": "segmented_fusion,segmenter_logging"}}


def segmented() -> dict:
    with open(LOG) as f:
        text = f.read()
    g = attach_rejections(segment_graph_from_dump(text, frozenset({"expr_eval", "no_op"})), text).to_json()
    o = {"status": "ok", "signature": None, "segments": 2, "schedulers": ["reduction", "pointwise"],
         "error_kind": None, "seconds": 1.5, "graph": g}
    d = report.build(script="m.py", sizes_before=(12, 3, 2), sizes_after=(4, 1, 1), bytes_before=2400,
                     minimal_script=SCRIPT, prop="status ok and one connected fusion and a kernel boundary "
                                                 "reduction → pointwise", backend="nvfuser",
                     backend_title=backends.get("nvfuser").facts.title, oracle_calls=41,
                     cache_hits=7, seconds=12.34, interrupted=False, passes=[
                         {"pass": "drop-outputs", "proposed": 3, "invalid": 0, "cached": 0, "tested": 3,
                          "accepted": 1, "seconds": 2.0}], also_interesting=[], replays={"original": "3/3",
                                                                                         "minimized": "3/3"},
                     environment=ENV)
    d["outcome_before"], d["outcome_after"] = dict(o), dict(o)
    d.update(verified=True, flaky=False, command="fmin m.py --backend nvfuser", wall_seconds=20.1,
             original_header="# CUDA devices:\n#  0: NVIDIA H100 80GB HBM3\n# torch version: 2.5.0")
    return d


def test_golden_report_of_a_segmented_fusion():
    md = report.to_markdown(segmented())
    path = os.path.join(GOLDEN, "segmented.md")
    if os.environ.get("FMIN_REGOLD"):
        with open(path, "w") as f:
            f.write(md)
    with open(path) as f:
        assert md == f.read(), "report.md changed; inspect it and re-run with FMIN_REGOLD=1 if it is right"


def test_the_report_reads_as_markdown():
    md = report.to_markdown(segmented())
    tokens = MarkdownIt("commonmark").enable("table").parse(md)
    first = next(t for t in tokens if t.type == "heading_open")
    title = tokens[tokens.index(first) + 1].content
    assert first.tag == "h2" and title.startswith("nvFuser splits a 4-op fusion into 2 kernels at reduction → pointwise")
    assert "not merged: inner_persistent: not enough registers" in title
    fences = [t for t in tokens if t.type == "fence"]
    assert [t.info for t in fences][:2] == ["python", "mermaid"]
    assert fences[0].content.startswith("# Minimized by fmin")
    heads = [tokens[k + 1].content for k, t in enumerate(tokens) if t.type == "heading_open" and t.tag == "h3"]
    assert heads == ["Segments of the minimized script", "How it was made", "Environment of the confirming run"]
    assert any(t.type == "table_open" for t in tokens)
    cells = [t.content for t in tokens if t.type == "inline"]
    assert "original" in cells and "minimized" in cells
    assert "<details><summary>The original script's header</summary>" in md
    assert "- command: `fmin m.py --backend nvfuser`" in md


def test_a_wrong_result_shows_its_worst_elements():
    d = segmented()
    d["outcome_after"]["graph"] = d["outcome_before"]["graph"] = None
    d["mismatch"] = {"judgement": {"ok": False, "outputs": [
        {"label": "input 0 (after execute)", "ok": False, "dtype": "float32", "shape": [2, 2],
         "reason": "1 of 4 elements differ", "worst_elements": [
             {"index": [1, 0], "backend": 0.0, "exact": 0.145, "eager": 0.145}]}]}}
    d["property_reason"] = "input 0 (after execute): 1 of 4 elements differ"
    md = report.to_markdown(d)
    assert md.startswith("## nvFuser computes a wrong result in a 4-op fusion")
    assert "### Differing values" in md and "| [1, 0] | 0.0 | 0.145 | 0.145 |" in md
