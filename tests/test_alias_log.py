"""The wrong result of issue 15, as nvFuser 0.2.36 computed it on the H200: an output written in
place into a (2, 2) view with strides (3, 1). The log (tests/data/nvfuser/logs-0.2.36/alias_strided.log,
made by `python3 tests/data/mismatch/alias_strided_probe.py` with
`NVFUSER_DUMP=segmented_fusion,segmenter_logging NVFUSER_DISABLE=parallel_compile`) holds what
nvFuser wrote; fmin's comparison, fed those values, finds both faults: the view's last element
left 0.0, and the value written one slot early in the buffer."""
import ast
import os

import torch

from conftest import ROOT
from minimizer.backends import runner_for
from minimizer.oracle.compare import judge
from minimizer.segments import SegmentGraph

LOG = os.path.join(ROOT, "tests", "data", "nvfuser", "logs-0.2.36", "alias_strided.log")


def _values():
    got = {}
    for line in open(LOG):
        for key in ("view after execute", "buffer after execute", "buffer eager torch writes"):
            if line.startswith(key + ":"):
                got[key] = torch.tensor(ast.literal_eval(line.split(":", 1)[1].strip()))
    return got


def test_the_log_shows_the_wrong_writes():
    text = open(LOG).read()
    assert "VIEW_WRONG" in text and "BUFFER_WRONG" in text
    result = {"status": "ok"}
    runner_for("nvfuser").analyze_log(result, text)
    g = SegmentGraph.from_json(result["graph"])
    assert [s.scheduler for s in g.segments] == ["reduction"] and g.kernels == 1


def test_fmin_finds_both_faults_in_what_nvfuser_wrote():
    v = _values()
    view, buf, want = v["view after execute"], v["buffer after execute"], v["buffer eager torch writes"]
    eager_view = want.as_strided((2, 2), (3, 1))
    c = judge([view, buf], [eager_view, want], [None, None], labels=["input 0 (after execute)",
                                                                   "input 0's storage (after execute)"])
    assert not c.ok
    view_diff, buf_diff = c.outputs
    assert not view_diff.ok and view_diff.worst_elements[0]["index"] == [1, 1]
    assert view_diff.worst_elements[0]["backend"] == 0.0
    # the buffer: slot 2 (between the rows) written, slots 3 and 4 shifted
    assert not buf_diff.ok and buf_diff.mismatched == 3
