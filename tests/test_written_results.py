"""Issue 23: every ``repro.min.py`` fmin writes — the best-so-far after each accepted step, an
interrupted run's, the final one — under any property carries the header of the run that
confirmed it, never the original's (a partial result attached as it is must not file the
user's old machine); a ``--test`` result says where it was confirmed; a resumed reduction counts
every run's oracle calls and shows progress against the original; no lock file is left behind.

The reductions here run in-process on fake pools (a run's environment is whatever the fake says)
or under a ``--test`` alone (no worker), so they cost no worker start."""
import json
import os

import pytest
import torch

from conftest import ROOT
from minimizer import report as reports
from minimizer.oracle.checks import ShellTest
from minimizer.oracle.context import RunContext
from minimizer.oracle.outcome import Outcome
from minimizer.oracle.property import Property
from minimizer.reduce import reduction
from minimizer.reduce.reduction import ReduceOptions, reduce_script

ROPE = os.path.join(ROOT, "corpus", "rope_qkv_split.py")
ORIGINAL_MACHINE = "NVIDIA H100 80GB HBM3"   # what the original's own header names
assert ORIGINAL_MACHINE in open(ROPE).read()


class NumberedRuns:
    """A fake pool whose every run fails the same way on a GPU named after the run's number, and
    that is interrupted (Ctrl-C) at run ``stop``: which run confirmed which script is known."""
    backend = "reference"

    def __init__(self, stop: int | None = None):
        self.stop, self.runs = stop, []

    def run(self, req):
        if self.stop is not None and len(self.runs) == self.stop:
            raise KeyboardInterrupt
        self.runs.append(req.script)
        k = len(self.runs)
        return Outcome("error", "reference", signature="RuntimeError: boom", message="RuntimeError: boom",
                       error_kind="runtime", where="execute",
                       environment={"backend": "reference", "device": "cuda", "gpu": f"GPU of run {k}",
                                    "torch": f"9.{k}", "nvfuser_direct": f"0.9.{k}"})

    def confirming_run(self, written: str) -> int:
        """The number of the first run of the script ``written`` is (its header aside): a
        candidate runs once, the original first to establish the property, then its replays."""
        body = reports.split_header(written)[1]
        return min(k + 1 for k, s in enumerate(self.runs) if reports.split_header(s)[1] == body)


def _reduce(out, pool, prop=None, **opt):
    return reduce_script(ROPE, prop, RunContext(backend="reference", quiet=True, command="fmin test"),
                         ReduceOptions(out=str(out), replays=1, **opt), pools={"reference": pool} if pool else None)


def test_an_interrupted_reduction_carries_the_header_of_the_run_that_confirmed_its_best(tmp_path):
    pool = NumberedRuns(stop=8)
    rep = _reduce(tmp_path, pool)
    assert rep["interrupted"]
    written = (tmp_path / "repro.min.py").read_text()
    k = pool.confirming_run(written)
    assert k > 1     # a step was accepted: the best is not the original
    header = reports.split_header(written)[0]
    assert header.startswith("# Minimized by fmin")
    assert f"# confirmed on: GPU of run {k} (reference backend)" in header and f"# torch version: 9.{k}" in header
    assert ORIGINAL_MACHINE not in written and "nvfuser version: 0.2.23" not in written
    assert rep["minimal_script"] == written and rep["environment"]["gpu"] == f"GPU of run {k}"
    assert not (tmp_path / ".fmin.lock").exists()     # the run is over: no lock left behind


def test_every_best_so_far_on_disk_carries_its_confirming_run(tmp_path, monkeypatch):
    """Each accepted step rewrites ``repro.min.py``; each version names the run that accepted it."""
    pool = NumberedRuns()
    seen = []
    save = reduction.Reducer.save_best

    def save_and_look(self):
        save(self)
        seen.append((tmp_path / "repro.min.py").read_text())
    monkeypatch.setattr(reduction.Reducer, "save_best", save_and_look)
    _reduce(tmp_path, pool, max_tests=8)
    assert len(seen) >= 3
    for written in seen:
        k = pool.confirming_run(written)
        assert f"# confirmed on: GPU of run {k} " in written and ORIGINAL_MACHINE not in written


def test_a_test_result_says_where_it_was_confirmed(tmp_path):
    """A --test alone runs no worker: the header and report.json record this machine, with the
    versions installed here, the test as what confirmed it."""
    rep = _reduce(tmp_path, None, Property((ShellTest("grep -q 'fd.ops.cat(' \"$1\""),)))
    written = (tmp_path / "repro.min.py").read_text()
    assert "# confirmed on: CPU (the --test command)" in written
    assert f"# torch version: {torch.__version__}" in written and "torch version: ?" not in written
    assert rep["environment"]["torch"] == torch.__version__ and rep["environment"]["device"] == "cpu"
    assert ORIGINAL_MACHINE not in written


def test_an_interrupted_test_result_carries_this_machine(tmp_path, monkeypatch):
    from minimizer.oracle.checks import shell
    real, calls = shell.run_shell_test, []

    def interrupted(*a, **kw):
        if len(calls) == 6:
            raise KeyboardInterrupt
        calls.append(1)
        return real(*a, **kw)
    monkeypatch.setattr(shell, "run_shell_test", interrupted)
    rep = _reduce(tmp_path, None, Property((ShellTest("grep -q 'fd.ops.cat(' \"$1\""),)))
    written = (tmp_path / "repro.min.py").read_text()
    assert rep["interrupted"] and rep["ops_after"] < rep["ops_before"]
    assert written.startswith("# Minimized by fmin") and "# confirmed on: CPU (the --test command)" in written
    assert ORIGINAL_MACHINE not in written


def test_a_resumed_reduction_counts_every_run_and_shows_progress_against_the_original(tmp_path, monkeypatch):
    first = NumberedRuns(stop=6)
    rep1 = _reduce(tmp_path, first)
    assert rep1["interrupted"] and rep1["oracle_calls"] > 0
    starts = []
    monkeypatch.setattr(reduction.StatusLine, "__call__", lambda self, s: starts.append((s["start"],
                                                                                        s["start_bytes"])))
    rep2 = _reduce(tmp_path, NumberedRuns())
    assert rep2["replays"].get("resumed") is True and not rep2["interrupted"]
    this_run = sum(p["tested"] for p in rep2["passes"])
    assert rep2["oracle_calls"] == rep1["oracle_calls"] + this_run
    assert rep2["oracle_calls_before_resume"] == rep1["oracle_calls"]
    assert "before the resume" in (tmp_path / "report.md").read_text()
    assert starts and set(starts) == {((rep2["ops_before"], rep2["inputs_before"], rep2["outputs_before"]),
                                       rep2["bytes_before"])}
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["tests"] == rep2["oracle_calls"]


def test_a_resumed_reduction_finds_its_cache_behind_the_new_header(tmp_path):
    """The best-so-far is written with fmin's header, but the candidates judged were the
    original's text: a resume puts the original's leading comments back, so the cache answers."""
    _reduce(tmp_path, NumberedRuns(stop=7))
    assert (tmp_path / "repro.min.py").read_text().startswith("# Minimized by fmin")
    again = NumberedRuns()
    rep = _reduce(tmp_path, again, max_tests=5)
    assert rep["replays"].get("resumed") is True
    assert len(again.runs) > 2 and all(s.startswith("# CUDA devices:") for s in again.runs)   # as judged before


@pytest.mark.parametrize("leading", ["", "# a\n# b\n\n", "\n\n# only\n"])
def test_split_header_gives_back_the_text(leading):
    body = "import torch\n# not the header\nx = 1\n"
    head, rest = reports.split_header(leading + body)
    assert (head, rest) == (leading, body) and reports.with_header(leading + body, "# new\n") == "# new\n" + body
