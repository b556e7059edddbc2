"""The reference backend fails exactly where real nvFuser failed, and types results as it does.

Ground truth: ``tests/data/nvfuser/logs-0.2.36/<probe>.log`` (and ``logs-0.2.35`` for the legacy
probe), captured on an H200 with ``bash scripts/gpu.sh probes 210`` (``29``): each
ends in ``exit: <code>`` of ``python3 <probe>.py``. The reference backend runs the same probe
scripts on the CPU and must succeed or fail the same way."""
import glob
import os
import re

import pytest

from conftest import ROOT
from minimizer.oracle import Pool, Request

PROBES = os.path.join(ROOT, "tests", "data", "nvfuser", "probes")


def _nvfuser_exit(name):
    for d in ("logs-0.2.36", "logs-0.2.35"):
        p = os.path.join(ROOT, "tests", "data", "nvfuser", d, name + ".log")
        if os.path.exists(p):
            return int(re.findall(r"^exit: (\d+)$", open(p).read(), re.M)[-1])
    return None


CASES = sorted(os.path.basename(p)[:-3] for p in glob.glob(os.path.join(PROBES, "*.py")))


@pytest.fixture(scope="module")
def pool():
    with Pool("reference", "cpu", jobs=2, timeout=300) as p:
        yield p


def test_every_probe_has_a_captured_log():
    assert CASES and all(_nvfuser_exit(n) is not None for n in CASES)


@pytest.mark.parametrize("name", CASES)
def test_reference_fails_where_nvfuser_fails(pool, name):
    path = os.path.join(PROBES, name + ".py")
    out = pool.run(Request(open(path).read(), path))
    nv_ok = _nvfuser_exit(name) == 0
    assert (out.status == "ok") == nv_ok, f"nvFuser exit {_nvfuser_exit(name)}, reference: {out.signature}"
    if not nv_ok:
        assert out.status == "error" and out.error_kind in ("user-input", "definition", "runtime")


TYPING = os.path.join(ROOT, "tests", "data", "nvfuser", "typing")


def _typing_cases():
    import json
    with open(os.path.join(TYPING, "checked-0.2.36.jsonl"), encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_every_typing_probe_was_run_on_nvfuser():
    ran = {os.path.basename(c["file"]) for c in _typing_cases()}
    assert ran == {os.path.basename(p) for p in glob.glob(os.path.join(TYPING, "*.py"))}
    assert all(c["backend"] == "nvfuser" and c["environment"]["gpu"] == "NVIDIA H200" for c in _typing_cases())


@pytest.mark.parametrize("case", _typing_cases(), ids=lambda c: os.path.basename(c["file"])[:-3])
def test_reference_types_results_as_nvfuser_does(pool, case):
    """tests/data/nvfuser/typing/README.md: Python bool literals are Int64 scalars in the direct
    frontend, neg of Half returns Float, welford's count is Int32, pad values match the tensor."""
    path = os.path.join(ROOT, case["file"])
    out = pool.run(Request(open(path).read(), path))
    assert out.status == case["status"], (out.signature, case.get("signature"))
    if case["status"] == "ok":
        assert [o["dtype"] for o in out.outputs] == [o["dtype"] for o in case["outputs"]]
    else:
        assert out.error_kind in ("user-input", "definition", "runtime") and "same dtype" in out.signature


@pytest.mark.parametrize("name", ["and_pybool", "where_tensor_pybool", "neg_half"])
def test_inductor_translation_types_results_as_nvfuser_does(name):
    """The Inductor backend runs fmin's translation, which must apply the same typing rules (the
    H200 campaign of 2026-12-03 found it typing ``where(c, c, False)`` Bool after the reference
    had learnt Int64)."""
    case = next(c for c in _typing_cases() if c["file"].endswith(f"/{name}.py"))
    path = os.path.join(ROOT, case["file"])
    with Pool("inductor", "cpu", jobs=1, timeout=300) as p:
        out = p.run(Request(open(path).read(), path))
    assert out.status == "ok", out.message
    assert [o["dtype"] for o in out.outputs] == [o["dtype"] for o in case["outputs"]]
