"""``--kernels``: the check added in one file (``oracle/checks/kernels.py``) — the command line,
``Property`` and its JSON know it through the registry alone."""
import subprocess
import sys

import pytest

from minimizer.oracle import Outcome
from minimizer.oracle.checks.kernels import Kernels, kernel_count
from minimizer.oracle.property import Property


def nvf(*schedulers):
    return Outcome("ok", "nvfuser", segments=len(schedulers), schedulers=list(schedulers))


def test_expr_eval_and_no_op_segments_are_not_kernels():
    assert kernel_count(nvf("expr_eval", "pointwise", "no_op")) == 1
    assert kernel_count(nvf("reduction", "pointwise", "expr_eval")) == 2
    assert kernel_count(Outcome("ok", "inductor", segments=3, schedulers=["pointwise"] * 3)) == 3
    assert kernel_count(Outcome("ok", "reference")) is None


@pytest.mark.parametrize("expr,schedulers,holds", [
    (">=2", ("expr_eval", "pointwise", "no_op"), False),   # two segments, one kernel
    (">=2", ("reduction", "expr_eval", "pointwise"), True),
    ("1", ("resize",), True),
    ("==3", ("pointwise", "pointwise", "pointwise", "expr_eval"), True),
])
def test_kernels_holds(expr, schedulers, holds):
    p = Property.from_flags(kernels=expr)
    assert p.holds(nvf(*schedulers))[0] is holds


def test_bare_count_binds_to_the_original_and_round_trips():
    k = Kernels("==").bind(nvf("reduction", "expr_eval", "pointwise"))
    assert k.n == 2 and "kernels == 2" in k.describe()
    p = Property((k,))
    assert Property.from_json(p.to_json()) == p
    held, why = k.holds(Outcome("error", "nvfuser", signature="x"))
    assert not held and "no kernel count" in why


def test_the_command_line_knows_the_flag_without_being_told():
    out = subprocess.run([sys.executable, "-m", "minimizer", "check", "--help"], capture_output=True, text=True)
    assert "--kernels EXPR" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "minimizer", "check", "--kernels", ">>2", "x.py"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "expected a kernel count" in bad.stderr and "Traceback" not in bad.stderr


def test_threads_asking_the_registries_at_once_see_them_whole():
    """Found on the H200 (bench_faithful judges four reductions in threads): the backend registry
    marked itself loaded before its modules were imported, so a second thread found no nvfuser
    backend and counted every segment as a kernel. A fresh interpreter, eight threads at once."""
    code = """
import threading
from minimizer.oracle.checks.kernels import kernel_count
from minimizer.oracle.outcome import Outcome
from minimizer.oracle.property import Property
got = []
def ask():
    got.append(kernel_count(Outcome("ok", "nvfuser", segments=3, schedulers=["expr_eval", "pointwise", "reduction"])))
    got.append(Property.from_flags(kernels=">=2") is not None)
threads = [threading.Thread(target=ask) for _ in range(8)]
[t.start() for t in threads]
[t.join() for t in threads]
print(sorted(set(got), key=str))
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert out.stdout.strip() == "[2, True]", out.stdout + out.stderr
