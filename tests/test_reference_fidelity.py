"""The reference backend fails exactly where real nvFuser failed.

Ground truth: ``tests/data/nvfuser/logs-0.2.36/<probe>.log`` (and ``logs-0.2.35`` for the legacy
probe), captured on an H200 with ``bash scripts/capture_nvfuser_logs.sh 210 $OUT`` (``29``): each
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
