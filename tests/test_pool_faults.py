"""fmin's own faults never pass for a program's: a worker process that says its CUDA context is
poisoned is replaced before it is handed the next program; a crash of a worker that had run
other programs is the program's only when a fresh worker repeats it; and a close (Ctrl-C, on the
command's way out) that finds a worker in any state — no process, one being replaced by another
thread, one running a request — stops it without an exception and leaves nothing running.

The pool's worker processes here are a stand-in of this file's own (``Worker.command``): it
speaks the worker protocol without importing torch (seconds, not a minute, on a loaded machine),
its scripts are commands, and it poisons itself the way a sticky CUDA error does: the answer
says ``retire``, then the process takes its time to exit with code 3. What the real worker says
and does then is tested in this process (``worker.main``).
"""
import io
import json
import os
import subprocess
import sys
import threading

import pytest

from minimizer.backends import Runner, base as backends, worker
from minimizer.fuzz.judging import oracles
from minimizer.oracle.pool import Pool, Request, Worker, WorkerClosed
from minimizer.oracle.triage import ENVIRONMENT, category, judgeable

STAND_IN = r"""
import json, os, signal, sys, time
resp = os.fdopen(int(sys.argv[1]), "w", buffering=1)
me = {"pid": os.getpid()}
resp.write(json.dumps({"ready": True, "environment": me}) + "\n")
served = 0
for line in sys.stdin:
    req = json.loads(line)
    if req.get("op") == "exit":
        break
    word, *args = req["script"].split()
    if word in ("crash", "hang"):   # ARG: a file that counts the runs (and says one began)
        with open(args[0], "a") as f:
            f.write("ran\n")
    if word == "crash" or word == "crash-if-used" and served:
        os.kill(os.getpid(), signal.SIGSEGV)
    while word == "hang":
        time.sleep(1)
    served += 1
    if word == "poison":   # ARG: seconds the process takes to exit after its answer
        resp.write(json.dumps({"status": "error", "signature": "CUDA error: an illegal memory access was encountered",
                               "error_kind": "runtime", "environment": me, "retire": "a sticky CUDA error"}) + "\n")
        time.sleep(float(args[0]))
        sys.exit(3)
    resp.write(json.dumps({"status": "ok", "environment": me}) + "\n")
"""


@pytest.fixture
def stand_in(monkeypatch, tmp_path):
    """Every worker started in the test runs the stand-in."""
    path = tmp_path / "stand_in_worker.py"
    path.write_text(STAND_IN)
    monkeypatch.setattr(Worker, "command", lambda self, fd: [sys.executable, str(path), str(fd)])


def test_a_poisoned_worker_is_replaced_before_the_next_program(stand_in):
    """The poisoned process answers and then takes 30 s to exit: the next program must not be
    written to it (it would never read it, and its exit would pass for that program's crash)."""
    with Pool("reference", "cpu", jobs=1, timeout=120) as pool:
        poisoned = pool.run(Request("poison 30"))
        assert poisoned.status == "error" and "illegal memory access" in poisoned.signature
        after = pool.run(Request("ok"))
        assert after.status == "ok", (after.signature, after.message)
        assert after.environment["pid"] != poisoned.environment["pid"]
        assert pool.workers[0].retired == 1


def test_a_crash_a_fresh_worker_does_not_repeat_is_not_the_programs(stand_in):
    with Pool("reference", "cpu", jobs=1, timeout=120) as pool:
        assert pool.run(Request("ok")).ok
        o = pool.run(Request("crash-if-used"))
    assert o.status == "error" and o.error_kind == "environment", o
    assert "crash: SIGSEGV" in o.message and "fresh worker ran it to ok" in o.message
    assert category(o) == ENVIRONMENT and not judgeable(o)
    # the fuzzer's failure oracle files nothing (and asks no reference: there is none here)
    assert oracles._failure(o, "crash-if-used", "p.py", 0, None, "reference") is None


def test_a_crash_is_the_programs_once_a_fresh_worker_repeats_it(stand_in, tmp_path):
    runs = tmp_path / "runs.log"
    with Pool("reference", "cpu", jobs=1, timeout=120) as pool:
        assert pool.run(Request("ok")).ok
        o = pool.run(Request(f"crash {runs}"))
        assert o.status == "crash" and o.signature == "crash: SIGSEGV"
        assert runs.read_text().count("ran") == 2    # on the used worker, then on a fresh one
        again = pool.run(Request(f"crash {runs}"))   # on a fresh worker already: believed at once
        assert again.status == "crash"
        assert runs.read_text().count("ran") == 3


class _Sticky(Runner):
    """Every run fails and leaves the process unusable (what ``poisoned`` says of a sticky CUDA error)."""

    def __init__(self):
        super().__init__(None)

    def warm(self, device):
        return {}

    def run_script(self, text, path, device, options, values_path=None):
        return {"status": "error", "signature": "CUDA error: an illegal memory access was encountered",
                "error_kind": "runtime"}

    def poisoned(self, result, device):
        return "a sticky CUDA error"


def test_the_real_worker_says_retire_and_serves_nothing_more(monkeypatch, tmp_path):
    """``backends/worker.py`` (in this process): the answer carries the backend's reason, and the
    next request is never read — the process exits with code 3."""
    r, w = os.pipe()
    reqs = [{"id": k, "script": "x", "capture": str(tmp_path / f"c{k}.log")} for k in (1, 2)]
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(json.dumps(q) + "\n" for q in reqs)))
    monkeypatch.setattr(backends, "runner_for", lambda name: _Sticky())
    try:
        assert worker.main(["worker", str(w), "sticky", "cpu"]) == 3
        lines = os.read(r, 1 << 20).decode().splitlines()
    finally:
        for fd in (r, w):
            try:
                os.close(fd)
            except OSError:
                pass
    ready, answer = (json.loads(x) for x in lines)
    assert answer["id"] == 1 and answer["retire"] == "a sticky CUDA error"


# ---- closing, in every state a worker can be in ----

class _Raced(subprocess.Popen):
    """A worker's process that another thread takes out of the worker (replacing or killing it)
    at the moment the close has just looked at it: between its check and its use."""
    worker = None

    def poll(self):
        if self.worker is not None and self.worker.proc is self:
            self.worker.proc = None
        return super().poll()


def test_close_is_safe_with_no_process_or_one_taken_by_another_thread(tmp_path):
    idle = Worker("reference", "cpu", workdir=str(tmp_path / "a"))
    idle.close()   # never started
    assert idle.proc is None and idle.kill() is None
    w = Worker("reference", "cpu", workdir=str(tmp_path / "b"))
    proc = _Raced([sys.executable, "-c", "import sys; sys.stdin.readline()"], stdin=subprocess.PIPE,
                  start_new_session=True, text=True)
    try:
        proc.worker, w.proc = w, proc
        w.close()
        assert w.proc is None and w.resp is None
    finally:
        proc.kill()
        proc.wait()
        proc.stdin.close()


def test_a_closed_worker_starts_nothing(tmp_path):
    """A request that reaches a worker after the close (a thread of the command that was still
    going) ends with WorkerClosed: no new process, no made-up outcome."""
    w = Worker("reference", "cpu", workdir=str(tmp_path / "w"))
    w.close()
    with pytest.raises(WorkerClosed):
        w.run(Request("x = 1"), timeout=30)
    assert w.proc is None
    pool = Pool("reference", "cpu", jobs=1)
    pool.close()
    with pytest.raises(WorkerClosed):
        pool.run(Request("x = 1"))
    assert pool.workers[0].proc is None


def test_a_close_while_a_request_runs_ends_it_cleanly(stand_in, tmp_path):
    """The close comes from another thread while the worker runs a script (it has said so in a
    file, then waits forever): the run ends with WorkerClosed, not a crash, and its process is gone."""
    started = tmp_path / "started"
    script = f"hang {started}"
    pool = Pool("reference", "cpu", jobs=1, timeout=300)
    got = []

    def run():
        try:
            got.append(pool.run(Request(script)))
        except BaseException as e:
            got.append(e)
    t = threading.Thread(target=run)
    t.start()
    w = pool.workers[0]
    while not started.exists() and t.is_alive():
        t.join(0.05)
    pid = w.proc.pid
    pool.close()
    t.join(60)
    assert not t.is_alive()
    assert len(got) == 1 and isinstance(got[0], WorkerClosed), got
    assert w.proc is None and w.resp is None
    with pytest.raises(ProcessLookupError):
        os.killpg(pid, 0)


# ---- the command around it ----

def test_an_interrupt_outside_the_commands_own_handling_exits_130(monkeypatch, capsys):
    """Ctrl-C while fmin imports torch to build its parser (seconds on a loaded machine)."""
    from minimizer import cli

    def interrupted(only=None):
        raise KeyboardInterrupt
    monkeypatch.setattr(cli, "build_parser", interrupted)
    script = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "corpus",
                          "rmsnorm_softmax_41.py")   # a script that is there: a missing one is refused earlier
    try:
        code = cli.main(["reduce", script])
    except KeyboardInterrupt:   # (not let through: it would stop the whole test session)
        pytest.fail("the interrupt escaped fmin's main: a traceback, not exit 130")
    assert code == 130
    assert "fmin: interrupted" in capsys.readouterr().err


def test_the_out_dir_lock_goes_when_a_second_interrupt_stops_the_shutdown(monkeypatch, tmp_path):
    """A reduction interrupted, and interrupted again while its judges finish (``oracle.close``):
    the lock of its directory is released all the same, and a new run can claim it."""
    from conftest import CORPUS
    from minimizer.oracle.context import RunContext
    from minimizer.outdir import claim_out_dir, release_out_dir
    from minimizer.reduce import reduction

    class Interrupted:
        def __init__(self, *args):
            pass

        def reduce(self):
            raise KeyboardInterrupt

    def interrupted_again(self):
        raise KeyboardInterrupt
    monkeypatch.setattr(reduction.PropertyOracle, "establish", lambda self, original, replays: None)
    monkeypatch.setattr(reduction.PropertyOracle, "close", interrupted_again)
    monkeypatch.setattr(reduction, "_Run", Interrupted)
    out = tmp_path / "out"
    ctx = RunContext(backend="reference", device="cpu", quiet=True)
    with pytest.raises(KeyboardInterrupt):
        reduction.reduce_script(os.path.join(CORPUS, "direct_rmsnorm_fwd.py"), None, ctx,
                                reduction.ReduceOptions(out=str(out)))
    assert not (out / ".fmin.lock").exists()
    release_out_dir(claim_out_dir(str(out)))
