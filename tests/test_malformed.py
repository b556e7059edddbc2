"""Scripts fmin cannot read stop with ``file:line:col: what was expected``, exit code 2 and no
traceback; each file's first line says where the error must point and what it must say."""
import glob
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT
from minimizer.errors import ScriptError
from minimizer.program import parse_file

CASES = sorted(glob.glob(os.path.join(ROOT, "tests", "data", "malformed", "*.py")))


def _expect(path):
    m = re.match(r"# expect: (\d+):(\d+): (.*)", open(path, encoding="utf-8").readline())
    return int(m.group(1)), int(m.group(2)), m.group(3).strip()


def test_there_are_enough_cases():
    assert len(CASES) >= 12


@pytest.mark.parametrize("path", CASES, ids=os.path.basename)
def test_reader_points_at_the_mistake(path):
    line, col, phrase = _expect(path)
    with pytest.raises(ScriptError) as e:
        parse_file(path)
    assert (e.value.line, e.value.col) == (line, col), str(e.value)
    assert phrase in e.value.message


@pytest.mark.parametrize("path", CASES[:4], ids=os.path.basename)
def test_cli_exit_code_and_message(path):
    line, col, phrase = _expect(path)
    before = open(path, "rb").read()
    r = subprocess.run([sys.executable, "-m", "minimizer", "check", path], capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2
    assert "Traceback" not in r.stderr
    last = r.stderr.strip().splitlines()[-1]   # (a library may warn on import before it)
    assert last.startswith(f"fmin: {path}:{line}:{col}: ")
    assert phrase in last
    assert open(path, "rb").read() == before


def test_upgrade_refuses_to_write_over_its_input(tmp_path):
    src = os.path.join(ROOT, "corpus", "legacy_softmax_fwd.py")
    copy = tmp_path / "s.py"
    copy.write_bytes(open(src, "rb").read())
    r = subprocess.run([sys.executable, "-m", "minimizer", "upgrade", str(copy), "-o", str(copy)],
                       capture_output=True, text=True, cwd=ROOT)
    assert r.returncode == 2 and "refusing to write over the input" in r.stderr
    assert copy.read_bytes() == open(src, "rb").read()
