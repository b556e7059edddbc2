"""The worker pool survives what scripts do to it, and nothing runs in the fmin process."""
import os

import pytest

from minimizer.oracle import Pool, Request, run_script

TINY = """
import torch
from nvfuser import FusionDefinition, DataType

def nvfuser_fusion_id0(fd : FusionDefinition) -> None :
    T0 = fd.define_tensor(shape=[-1, -1], contiguity=[True, True], dtype=DataType.Float, is_cpu=False)
    T1 = fd.ops.neg(T0)
    fd.add_output(T1)

with FusionDefinition() as fd:
    nvfuser_fusion_id0(fd)

inputs = [torch.testing.make_tensor((4, 8), dtype=torch.float32, device='cuda:0')]
out = fd.execute(inputs)
print("PID", __import__("os").getpid())
"""


def test_ok_runs_in_another_process():
    out = run_script(TINY, want_values=True)
    assert out.status == "ok", out.message
    assert out.outputs[0]["shape"] == [4, 8] and out.outputs[0]["dtype"] == "float32"
    assert "PID" in out.log and f"PID {os.getpid()}" not in out.log
    inputs, outputs = out.values
    assert (outputs[0] == -inputs[0]).all()


@pytest.mark.parametrize("code,signature", [
    ("import os; os._exit(7)", "crash: exit code 7"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)", "crash: SIGSEGV"),
    ("import os; os.abort()", "crash: SIGABRT"),
])
def test_crash_is_reported_and_worker_replaced(code, signature):
    with Pool("reference", "cpu", jobs=1, timeout=60) as pool:
        bad = pool.run(Request(code))
        assert bad.status == "crash" and bad.signature == signature
        good = pool.run(Request(TINY))
        assert good.status == "ok"


def test_hang_times_out_and_next_request_is_served():
    with Pool("reference", "cpu", jobs=1, timeout=60) as pool:
        hung = pool.run(Request("import time\nwhile True: time.sleep(1)", timeout=2))
        assert hung.status == "timeout"
        assert 1.5 < hung.seconds < 30
        assert pool.run(Request(TINY)).status == "ok"


def test_script_error_keeps_worker():
    with Pool("reference", "cpu", jobs=1, timeout=60) as pool:
        err = pool.run(Request("raise ValueError('boom 42')"))
        assert err.status == "error" and err.signature == "ValueError: boom N"
        pid_before = pool.workers[0].proc.pid
        assert pool.run(Request(TINY)).status == "ok"
        assert pool.workers[0].proc.pid == pid_before


def test_no_execute_is_an_error():
    out = run_script("x = 1")
    assert out.status == "error" and "never called fd.execute" in out.signature


def test_many_requests_across_workers_keep_order():
    reqs = [Request(TINY.replace("(4, 8)", f"({n}, 3)")) for n in range(1, 7)]
    with Pool("reference", "cpu", jobs=2, timeout=60) as pool:
        outs = pool.run_many(reqs)
    assert [o.outputs[0]["shape"][0] for o in outs] == [1, 2, 3, 4, 5, 6]
