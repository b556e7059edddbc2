"""``fmin check`` as a user runs it: its output and its exit code (reference backend, CPU), each
command through ``cli.main`` in this process (``conftest.fmin_here``: the scripts run in warm
workers); the streaming of rows as scripts finish is watched on a real ``fmin`` process."""
import json
import os
import subprocess
import sys

import pytest

from conftest import ROOT, fmin_here

BODY = """
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.neg(T0)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [torch.randn((4, 8), dtype=torch.float32, device='cuda:0')]
"""
OK = BODY + "out = fd.execute(inputs)\n"
ERR = BODY + "raise ValueError('boom 42')\n"
MALFORMED = BODY.replace("fd.ops.neg(T0)", "fd.ops.neg(T0") + "out = fd.execute(inputs)\n"
KEYS = {"file", "status", "signature", "segments", "schedulers", "outputs", "seconds"}


def check_argv(*args):
    backend = [] if "--backend" in args else ["--backend", "reference"]
    return ["check", "--device", "cpu", *backend, *args]


CALLS = {
    "plain": lambda p: ("--json", p["ok"], p["err"]),
    "malformed": lambda p: (p["malformed"], p["ok"]),
    "bad_flag": lambda p: ("--segments", ">>3", p["ok"]),
    "json_property": lambda p: ("--json", "--error", r"boom \d+", "--test", 'grep -q boom "$1"', p["err"]),
    "text_property": lambda p: ("--error", "boom", "--mismatch", "--test", 'grep -q neg "$1"', p["ok"], p["err"]),
    "holds": lambda p: ("--test", "true", p["ok"], p["err"]),
}


@pytest.fixture(scope="module")
def scripts(tmp_path_factory):
    d = tmp_path_factory.mktemp("check")
    paths = {}
    for name, text in (("ok", OK), ("err", ERR), ("malformed", MALFORMED)):
        p = d / f"{name}.py"
        p.write_text(text)
        paths[name] = str(p)
    return paths


@pytest.fixture
def runs(scripts, capfd):
    """``runs[name]``: the ``CALLS[name]`` command's result (run when asked for)."""
    class Runs(dict):
        def __missing__(self, k):
            self[k] = fmin_here(capfd, *check_argv(*CALLS[k](scripts)))
            return self[k]
    return Runs()


def lines(stdout):
    return [json.loads(ln) for ln in stdout.splitlines() if ln.strip()]


def test_json_keys_and_exit_codes_without_flags(runs):
    r = runs["plain"]
    assert r.returncode == 2, r.stderr          # one script fails in its own code: fmin cannot judge it
    ok, err = lines(r.stdout)
    assert KEYS <= set(ok) and KEYS <= set(err)
    assert "property" not in ok
    assert ok["status"] == "ok" and ok["outputs"][0]["shape"] == [4, 8] and ok["category"] == "ok"
    assert err["status"] == "error" and err["signature"] == "ValueError: boom N"
    assert err["category"] == "script" and err["where"] == "script" and "boom 42" in err["category_message"]


def test_malformed_script_exits_2_without_traceback(runs, scripts):
    r = runs["malformed"]
    assert r.returncode == 2
    assert f"{scripts['malformed']}:" in r.stderr
    line = next(ln for ln in r.stderr.splitlines() if scripts["malformed"] in ln)
    path, lineno, col = line.removeprefix("fmin: ").split(":")[:3]
    assert lineno.isdigit() and col.isdigit()
    assert "Traceback" not in r.stderr + r.stdout
    assert "ok.py" in r.stdout                   # the readable script still ran


def test_bad_property_flag_exits_2(runs):
    r = runs["bad_flag"]
    assert r.returncode == 2 and "segment count" in r.stderr and "Traceback" not in r.stderr


def test_property_json_and_exit_code_follow_the_property(runs):
    r = runs["json_property"]
    assert r.returncode == 0, r.stdout + r.stderr   # the script fails, but the property holds
    (d,) = lines(r.stdout)
    assert KEYS <= set(d)
    assert d["property"]["holds"] is True
    assert set(d["property"]["checks"]) == {"error", "test"}
    assert all(c["holds"] and c["reason"] for c in d["property"]["checks"].values())


def test_property_columns_in_text(runs):
    r = runs["text_property"]
    assert r.returncode == 1                     # neither holds: ok.py does not fail, err.py has no outputs
    out = r.stdout
    assert out.startswith("property: an error matching /boom/ and outputs differ from reference")
    lines = out.splitlines()
    assert lines[1].split()[:5] == ["script", "status", "category", "kernels", "seconds"]
    k = next(i for i, ln in enumerate(lines) if ln.endswith("float32[4, 8]"))
    assert "property fails: error: status ok" in lines[k + 1]   # each row's verdict follows it
    assert "--mismatch       fails: outputs match reference within tolerance" in out
    assert "--test           holds:" in out
    assert "--mismatch       fails: error `ValueError: boom N`: no outputs to compare" in out


def test_property_holds_exit_0_text(runs):
    r = runs["holds"]
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    rows = [k for k, ln in enumerate(lines) if "ok.py" in ln or "err.py" in ln]
    assert len(rows) == 2 and all(lines[k + 1].strip() == "property holds" for k in rows)


def test_bad_flags_and_paths_exit_2_without_a_traceback(tmp_path, capfd):
    """Issue 16: flag validation, unusable --out / -o, and the lock on --out."""
    script = os.path.join(ROOT, "corpus", "legacy_softmax_fwd.py")
    (tmp_path / "afile").write_text("")
    cases = [(["fuzz", "--max-examples", "-5"], ">= 0"),
             (["fuzz", "--max-ops", "0"], ">= 1"),
             (["reduce", script, "--timeout", "0", "--test", "true"], "> 0"),
             (["reduce", script, "--backend", "reference", "--test", "true", "--out", str(tmp_path / "afile")],
              "exists and is not a directory"),
             (["upgrade", script, "-o", "/proc/fmin-nowhere.py"], "/proc/fmin-nowhere.py")]
    for argv, words in cases:
        r = fmin_here(capfd, *argv)
        assert r.returncode == 2 and words in r.stderr and "Traceback" not in r.stderr, (argv, r.stderr)


def test_two_reductions_cannot_write_one_out_dir(tmp_path):
    from minimizer.reduce.reduction import claim_out_dir
    out = tmp_path / "out"
    held = claim_out_dir(str(out))
    try:
        with pytest.raises(ValueError, match="another fmin run is writing there"):
            claim_out_dir(str(out))
    finally:
        held.close()
    claim_out_dir(str(out)).close()     # free again once the first run is done


def test_rows_are_printed_as_scripts_finish(tmp_path):
    """Issue 15/16: a long batch shows each row as its script finishes, and a run killed half way
    keeps the rows it printed: the fast script's row is out while the slow one still waits (for a
    gate this test opens only once it has read that row: no clock involved)."""
    import select
    fast = os.path.join(ROOT, "corpus", "legacy_softmax_fwd.py")
    slow, gate = tmp_path / "slow.py", tmp_path / "gate"
    slow.write_text(open(fast).read().replace(
        "fd.execute(inputs)", f"import os, time\nwhile not os.path.exists({str(gate)!r}):\n    time.sleep(0.1)\n"
                              "fd.execute(inputs)"))
    p = subprocess.Popen([sys.executable, "-m", "minimizer", "check", "--backend", "reference", "--device", "cpu",
                          "--jobs", "2", "--json", fast, str(slow)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, cwd=ROOT)
    try:
        ready, _, _ = select.select([p.stdout], [], [], 500)   # a guard against a hang, not a measurement
        assert ready, "no row while the slow script waits"
        first = p.stdout.readline()
        assert json.loads(first)["file"] == fast and p.poll() is None
        gate.touch()
        rest = p.communicate(timeout=500)[0]
        assert p.returncode == 0 and json.loads(rest.splitlines()[0])["file"] == str(slow)
    finally:
        p.kill()
        p.wait()


def test_long_commands_say_what_they_do_without_a_terminal(tmp_path, capfd):
    """Issue 16: off a terminal (CI logs, pipes) a reduction prints plain lines — what is starting,
    then its progress (pass, ops now/at start, tests) — on stderr, no control characters."""
    script = os.path.join(ROOT, "corpus", "legacy_softmax_fwd.py")
    r = fmin_here(capfd, "reduce", script, "--backend", "reference", "--device", "cpu",
                  "--test", "grep -q 'fd.ops.exp(' \"$1\"", "--out", str(tmp_path / "out"))
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    import re
    assert any(re.match(r"\[\s*\d+s\] \S+ +ops \d+/\d+ ", ln) for ln in lines), r.stderr
    assert "\r" not in r.stderr and "\x1b" not in r.stderr
    assert not any("starting" in ln for ln in lines)     # a --test alone starts no worker, and says none
    c = fmin_here(capfd, "check", "--backend", "reference", "--device", "cpu", script)
    assert c.stderr.startswith("fmin: starting 1 reference worker on cpu (importing torch")
