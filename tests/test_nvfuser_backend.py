"""The nvfuser backend's glue, fed with output captured from real nvFuser 0.2.36 on an H200
(``tests/data/nvfuser/logs-0.2.36``; see docs/gpu.md and docs/benchmarks.md for the command). No GPU needed: the
backend's log analysis and error classification are pure functions of that text."""
import os
import re

import pytest

from conftest import ROOT
from minimizer.backends import get, nvfuser, runner_for

NVF = get("nvfuser")
NVF_RUNNER = runner_for("nvfuser")

LOGS = os.path.join(ROOT, "tests", "data", "nvfuser", "logs-0.2.36")


def _log(name):
    return open(os.path.join(LOGS, name + ".log"), encoding="utf-8", errors="replace").read()


@pytest.mark.parametrize("name,segments,schedulers", [
    ("pointwise", 1, ["pointwise"]),
    ("softmax", 1, ["inner_persistent"]),
    ("segment_set", 2, ["pointwise", "reduction"]),
    ("reduction_and_pointwise_outputs", 4, ["reduction", "reduction", "pointwise", "expr_eval"]),
])
def test_segments_reach_the_outcome(name, segments, schedulers):
    result = {"status": "ok"}
    NVF_RUNNER.analyze_log(result, _log(name))
    assert result["segments"] == segments and result["schedulers"] == schedulers


def _exception_text(log):
    """The text of the RuntimeError as Python printed it (from 'RuntimeError: ' to the frames)."""
    m = re.search(r"^RuntimeError: (.*?)(?=^exit: )", log, re.S | re.M)
    return m.group(1)


@pytest.mark.parametrize("name,kind", [
    ("err_dtype_mismatch", "user-input"),
    ("err_stride_mismatch", "user-input"),
    ("err_extent_mismatch", "user-input"),
    ("err_bad_reshape", "definition"),
    ("err_memory_promotion_rope", "definition"),
])
def test_errors_are_classified(name, kind):
    d = nvfuser.classify(RuntimeError(_exception_text(_log(name))))
    assert d["error_kind"] == kind, d
    assert d["signature"].startswith("nvfuser ")
    assert not re.search(r"\.(cpp|h):\d", d["signature"])   # line numbers are hints, not identity


def test_same_failure_same_signature_across_runs():
    a = nvfuser.classify(RuntimeError(_exception_text(_log("err_dtype_mismatch"))))
    b = nvfuser.classify(RuntimeError(_exception_text(_log("err_dtype_mismatch.parallel"))))
    assert a["signature"] == b["signature"]


def test_worker_environment_defaults_do_not_override_the_user(monkeypatch):
    monkeypatch.setenv("NVFUSER_DISABLE", "kernel_reuse")
    env = NVF.worker_env()
    assert env == {"NVFUSER_DUMP": "segmented_fusion,segmenter_logging,scheduler_params"}
