"""No traceback anywhere (issue 14): ``fmin check`` and ``fmin reduce --test true --max-tests 3`` on
every corpus script, every malformed script (``tests/data/malformed``: the reader stops them) and
every broken one (``tests/data/broken``: readable, but their own code fails, or they are
unusual: no outputs, a bad reshape, ``cuda:1``) end with exit 0, 1 or 2 and no "Traceback" on
stderr. Reference backend on the CPU, two commands at a time: ``check`` as one subprocess, the
reductions through ``main`` in two processes (``fmin_batch``)."""
import glob
import os
import subprocess
import sys
from types import SimpleNamespace

import pytest

from conftest import ROOT, corpus_scripts
from fmin_batch import fmin_batch

SCRIPTS = (corpus_scripts() + sorted(glob.glob(os.path.join(ROOT, "tests", "data", "malformed", "*.py")))
           + sorted(glob.glob(os.path.join(ROOT, "tests", "data", "broken", "*.py"))))


def _fmin(*args, timeout=300):
    env = {**os.environ, "PYTHONPATH": ROOT}
    return subprocess.run([sys.executable, "-m", "minimizer", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=timeout)


@pytest.fixture(scope="module")
def reduced(tmp_path_factory):
    """Every reduction, run through fmin's ``main`` in two processes (``fmin_batch``: each
    command's own stdout/stderr and exit status, an escaping exception printed as a traceback)
    rather than a process per script, which spent most of its time importing torch."""
    out = tmp_path_factory.mktemp("reduced")

    def argv(path):
        name = os.path.splitext(os.path.basename(path))[0]
        parent = os.path.basename(os.path.dirname(path))
        return ["reduce", path, "--backend", "reference", "--device", "cpu", "--test", "true", "--max-tests", "3",
                "--replays", "1", "-q", "--out", str(out / f"{parent}-{name}")]

    results = fmin_batch([argv(p) for p in SCRIPTS], cwd=ROOT)
    return {p: SimpleNamespace(**r) for p, r in zip(SCRIPTS, results)}


def test_there_are_scripts_of_every_kind():
    assert len(corpus_scripts()) >= 20 and len(SCRIPTS) >= 40


def test_check_every_script_without_traceback():
    r = _fmin("check", "--backend", "reference", "--device", "cpu", "--jobs", "2", *SCRIPTS, timeout=600)
    assert "Traceback" not in r.stderr + r.stdout, r.stderr[-3000:]
    assert r.returncode in (0, 1, 2)
    # every readable script has its row, with a category
    for path in SCRIPTS:
        if "malformed" not in path:
            assert any(path[-30:] in ln or os.path.basename(path) in ln for ln in r.stdout.splitlines()), path


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: "/".join(p.split(os.sep)[-2:]))
def test_reduce_with_a_test_without_traceback(reduced, path):
    r = reduced[path]
    assert "Traceback" not in r.stderr + r.stdout, r.stderr[-3000:]
    assert r.returncode in (0, 1, 2), (r.returncode, r.stderr[-2000:])
    if "malformed" in path:
        assert r.returncode == 2
