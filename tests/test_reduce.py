"""The reducer: results are 1-minimal for every pass, runs are deterministic, and an interrupted
run resumes from its best-so-far. The predicate tests use a judge written in Python (fast, no
worker); the end-to-end ones run ``fmin reduce`` with real workers."""
import json
import os
import re
import signal
import subprocess
import sys
import time

import pytest

from conftest import ROOT
from minimizer.program import parse_file, to_source
from minimizer.program import edits, static
from minimizer.reduce.driver import Reducer, Verdict
from minimizer.reduce.passes import PASSES

ROPE = os.path.join(ROOT, "corpus", "rope_qkv_split.py")
LN = os.path.join(ROOT, "corpus", "seeds", "layernorm_bwd_segmented.py")
SOFTMAX = os.path.join(ROOT, "corpus", "legacy_softmax_fwd.py")


def has(pattern):
    """A property: the printed script still matches ``pattern`` (a stand-in for an oracle)."""
    rx = re.compile(pattern)
    return lambda texts: [Verdict(bool(rx.search(t))) for t in texts]


def reduce(path, judge, jobs=1, **kw):
    return Reducer(parse_file(path), judge, jobs=jobs, **kw).run()


def one_minimal(program, judge):
    """No single candidate of any pass (statically valid, smaller) still holds."""
    from minimizer.reduce.driver import order_key
    info = static.check(program)
    text = to_source(program)
    for p in PASSES:
        for _, cand in p.candidates(program, info, 0):
            cand = edits.dce(cand)
            if not static.is_valid(cand):
                continue
            t = to_source(cand)
            if order_key(cand, t) >= order_key(program, text):
                continue
            if judge([t])[0].holds:
                return p.name, t
    return None


@pytest.mark.parametrize("path,pattern,max_ops", [
    (ROPE, r"fd\.ops\.cat\(", 2),
    (ROPE, r"fd\.ops\.neg\(", 1),
    (LN, r"fd\.ops\.sum\(.*dims=\[0, 1\]|axes=\[0, 1\]", 1),
    (SOFTMAX, r"fd\.ops\.exp\(", 1),
])
def test_result_is_small_and_one_minimal(path, pattern, max_ops):
    judge = has(pattern)
    res = reduce(path, judge)
    assert judge([res.text])[0].holds
    assert res.program.n_ops() <= max_ops, res.text
    assert static.is_valid(res.program)
    assert one_minimal(res.program, judge) is None
    # the result is a script the reader accepts as it is
    assert parse_file(path).dialect == res.program.dialect


def test_parallel_batches_give_the_sequential_result():
    judge = has(r"fd\.ops\.cat\(")
    seq = reduce(ROPE, judge, jobs=1)
    par = reduce(ROPE, judge, jobs=4)
    assert par.text == seq.text


def test_cache_answers_repeated_candidates():
    calls = []

    def judge(texts):
        calls.extend(texts)
        return has(r"fd\.ops\.neg\(")(texts)

    res = reduce(ROPE, judge)
    assert len(calls) == len(set(calls)) == res.tests


def test_slippage_is_saved_aside_not_accepted(tmp_path):
    def judge(texts):
        out = []
        for t in texts:
            ok = "fd.ops.neg(" in t
            other = not ok and "fd.ops.slice(" in t   # "another bug": not what we reduce
            out.append(Verdict(ok, slipped=other, reason="other failure"))
        return out

    res = reduce(ROPE, judge, also_interesting_dir=str(tmp_path / "also"))
    assert "fd.ops.neg(" in res.text
    assert res.also_interesting and all(open(p).read().startswith("# also interesting") for p in res.also_interesting)


def _cli(*args, **kw):
    return subprocess.run([sys.executable, "-m", "minimizer", *args], capture_output=True, text=True, cwd=ROOT, **kw)


def test_cli_reduces_deterministically_and_writes_reports(tmp_path):
    test = tmp_path / "keep_neg.sh"
    test.write_text('#!/bin/bash\ngrep -q "fd.ops.neg(" "$1"\n')
    test.chmod(0o755)
    outs = []
    for k in range(2):
        out = tmp_path / f"out{k}"
        r = _cli(ROPE, "--test", str(test), "--out", str(out), "-q", "--jobs", "2")
        assert r.returncode == 0, r.stderr
        outs.append(out)
    a, b = [(o / "repro.min.py").read_text() for o in outs]
    assert a == b.replace(str(outs[1]), str(outs[0]))   # the header names each run's own --out
    assert f"--out {outs[0]} -q --jobs 2" in a          # the command as typed
    rep = json.loads((outs[0] / "report.json").read_text())
    for key in ("ops_before", "ops_after", "inputs_before", "inputs_after", "oracle_calls", "cache_hits", "seconds",
                "property"):
        assert key in rep
    assert rep["ops_before"] == 27 and rep["ops_after"] == 1
    assert rep["replays"]["original"] == "3/3" and rep["replays"]["minimized"] == "3/3"
    md = (outs[0] / "report.md").read_text()
    assert "```python" in md and "| ops | 27 | 1 |" in md
    # the input file is untouched and the minimal script runs on its own
    assert open(ROPE).read() == parse_file(ROPE).source.text
    run = _cli("check", "--backend", "reference", str(outs[0] / "repro.min.py"))
    assert run.returncode == 0, run.stdout + run.stderr


def test_interrupted_run_resumes_from_best_so_far(tmp_path):
    slow = tmp_path / "slow_keep_cat.sh"
    slow.write_text('#!/bin/bash\nsleep 0.3\ngrep -q "fd.ops.cat(" "$1"\n')
    slow.chmod(0o755)
    out = tmp_path / "out"
    p = subprocess.Popen([sys.executable, "-m", "minimizer", ROPE, "--test", str(slow), "--out", str(out), "-q"],
                         cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    best = out / "repro.min.py"
    deadline = time.time() + 120
    first = None
    while time.time() < deadline:
        if best.exists():
            text = best.read_text()
            if first is None:
                first = text
            elif text != first:   # at least one accepted step is on disk
                break
        time.sleep(0.2)
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    partial = best.read_text()
    assert parse_file(str(best)).n_ops() < parse_file(ROPE).n_ops()   # a valid, smaller script was left
    r = _cli(ROPE, "--test", str(slow), "--out", str(out), "-q")
    assert r.returncode == 0, r.stderr
    rep = json.loads((out / "report.json").read_text())
    assert rep["replays"].get("resumed") is True
    assert "fd.ops.cat(" in (out / "repro.min.py").read_text()
    assert partial != (out / "repro.min.py").read_text() or rep["oracle_calls"] >= 0
