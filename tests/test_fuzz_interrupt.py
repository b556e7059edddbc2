"""Ctrl-C during ``fmin fuzz`` is never lost. Python raises a SIGINT's ``KeyboardInterrupt`` in
whatever Python code runs next, and where that is a garbage-collector callback (Hypothesis
registers one) the exception is swallowed: the campaign then ran on to its end, exit 0, no
summary. ``minimizer.interrupt`` records the signal and the campaign's loop raises it again.

One Python process runs several campaigns on the reference backend (torch imported once); in
each, a SIGINT arrives at a random moment while programs are being drawn and judged. The
collector runs far more often than usual there (``gc.set_threshold``), so that some of the
signals land in a gc callback — the race a user hits about once in eight tries — and the test
checks that it did."""
import json
import os
import subprocess
import sys

from conftest import ROOT

TRIES = 3

_DRIVER = r"""
import faulthandler, gc, json, os, random, signal, sys, threading, time
faulthandler.dump_traceback_later(240, exit=True)   # a hang says where, before the test's limit
signal.signal(signal.SIGINT, signal.default_int_handler)   # as in a terminal: a suite started in the
# background (``nohup ... &``) hands its processes SIGINT ignored, and Ctrl-C then never arrives
from minimizer import interrupt
from minimizer.cli import main
from minimizer.fuzz.campaign import run as campaign

random.seed(1)
gc.set_threshold(20, 2, 2)   # the collector (and Hypothesis's gc callback) runs all the time
sent = []
real = campaign._Campaign.generate_and_judge

armed = []

def in_gc(phase, info):   # the signal sent from inside a gc callback: its handler runs there
    # (a collection in another thread would deliver it to the main thread's own code instead)
    if armed and phase == "start" and threading.current_thread() is threading.main_thread():
        armed.clear()
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

gc.callbacks.append(in_gc)

def judging(self, runner):   # SIGINT at a random moment once programs are being drawn
    delay = random.uniform(0.3, 1.5)
    if len(results) % 2:     # every other try: at the next collection after the delay
        threading.Timer(delay, lambda: armed.append(1)).start()
    else:
        threading.Timer(delay, lambda: (sent.append(time.monotonic()), os.kill(os.getpid(), signal.SIGINT))).start()
    return real(self, runner)

campaign._Campaign.generate_and_judge = judging
results = []
for k in range(int(sys.argv[1])):
    sent.clear()
    before = interrupt.swallowed[0]
    rc = main(["fuzz", "--backend", "reference", "--device", "cpu", "--max-examples", "100000", "--seed", str(k),
               "--timeout", "60", "--corpus", os.path.join(sys.argv[2], str(k)), "--no-minimize", "-q"])
    sys.stdout.flush()
    results.append(rc)
    print("@@", json.dumps({"rc": rc, "after_signal": time.monotonic() - sent[0] if sent else None,
                            "swallowed": interrupt.swallowed[0] - before}), flush=True)
"""


#: what the driver inherits of the suite's environment: a user's shell, no more
_KEPT = ("PATH", "HOME", "LANG", "LC_ALL", "TMPDIR", "USER", "VIRTUAL_ENV", "CI")


def _drive(tmp_path, timeout=300) -> subprocess.CompletedProcess:
    """The driver run in a fresh Hypothesis storage directory (generation as in a user's first
    run, whatever the suite's earlier processes stored in the shared one) and a shell's
    environment (``_KEPT``: not variables the suite's earlier tests set); where it runs past
    ``timeout``, what it printed by then is the failure's message, not lost with the process."""
    env = {k: v for k, v in os.environ.items() if k in _KEPT}   # nothing an earlier test left in the environment
    env.update(PYTHONPATH=ROOT, HYPOTHESIS_STORAGE_DIRECTORY=str(tmp_path / "hypothesis"))
    p = subprocess.Popen([sys.executable, "-c", _DRIVER, str(TRIES), str(tmp_path / "corpus")], cwd=ROOT, env=env,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        out, err = p.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        raise AssertionError(f"the driver ran past {timeout} s; it printed:\n{out[-3000:]}\n{err[-3000:]}")
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def test_ctrl_c_during_a_campaign_stops_it_with_a_summary_every_time(tmp_path):
    res = _drive(tmp_path)
    assert res.returncode == 0, res.stderr[-3000:]
    chunks = res.stdout.split("@@ ")[:-1]
    tries = [json.loads(line.split("\n", 1)[0]) for line in res.stdout.split("@@ ")[1:]]
    assert len(tries) == TRIES, res.stdout[-3000:]
    for t, out in zip(tries, chunks):
        assert t["rc"] == 130, (t, res.stderr[-3000:])
        assert t["after_signal"] is not None and t["after_signal"] < 10, t   # stopped, not run on
        assert "| interrupted " in out and "| programs run " in out, out       # the summary of what it did
    assert sum(t["swallowed"] for t in tries) >= 1, tries   # the race was hit, and survived
    assert "Exception ignored" not in res.stderr
