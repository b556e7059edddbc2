"""Issue 24: what bounded a campaign other than its workers. Results are taken in example order;
the campaign keeps ``window_for(slots)`` programs submitted, so one slow program at the head no
longer idles the other slots; at the deadline what was already judged is counted; every worker
starts at once before the clock (``--time`` is judging time, start-up is reported apart).

A runner here is a stand-in of the runner protocol whose futures the test completes by hand:
what is asserted is the campaign's scheduling, not any backend."""
import json
import threading
import time
from concurrent.futures import Future

from minimizer import phases
from minimizer.fuzz.campaign.options import CampaignOptions, window_for
from minimizer.fuzz.campaign.run import run_campaign
from minimizer.fuzz.judging.oracles import Judged
from minimizer.oracle.context import RunContext
from minimizer.oracle.outcome import Outcome
from minimizer.oracle.pool import Pool


class HeldHead:
    """Judges every program at once, except the first one submitted, which stays pending until
    ``release`` (a compile far slower than the rest)."""

    reduce_slots = 1

    def __init__(self, slots: int):
        self.n = slots
        self.window = window_for(slots)
        self.submitted: list[str] = []
        self.head: Future | None = None
        self.ahead_while_held = 0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def judge_example(self, e, text):
        f: Future = Future()
        self.submitted.append(e.id)
        if self.head is None:
            self.head = f
        else:
            if not self.head.done():
                self.ahead_while_held += 1
            f.set_result(Judged(Outcome("ok", backend="reference"), []))
        return f

    def release(self):
        self.head.set_result(Judged(Outcome("ok", backend="reference"), []))

    def describe(self):
        return ""


def _opt(tmp_path, **kw):
    return CampaignOptions(ctx=RunContext(backend="reference", device="cpu", quiet=True), seed=3,
                           corpus=str(tmp_path / "c"), minimize=False, **kw)


def test_a_slow_head_does_not_stop_submission(tmp_path):
    """With 16 slots the campaign submits well past 2 programs a slot while the first one is still
    being judged (the old depth was max(32, 2 x slots) = 32 in all), and takes every result once
    the head is back."""
    r = HeldHead(16)
    threading.Timer(3.0, r.release).start()
    s = run_campaign(_opt(tmp_path, max_examples=300), runner=r)
    assert r.ahead_while_held > 2 * 32, r.ahead_while_held
    assert s.programs == len(r.submitted) == 300


def test_at_the_deadline_what_was_judged_is_counted(tmp_path):
    """The head never comes back before the deadline: the programs judged behind it are counted
    (in example order), the head is cancelled, and the summary says how long start-up took."""
    r = HeldHead(4)
    t = time.monotonic()
    s = run_campaign(_opt(tmp_path, seconds=1.5, summary=str(tmp_path / "s.json")), runner=r)
    assert time.monotonic() - t < 60
    assert r.head.cancelled()
    assert s.programs == len(r.submitted) - 1 > 0   # all but the head
    assert json.loads((tmp_path / "s.json").read_text())["startup_seconds"] >= 0


def test_the_clock_starts_once_the_runner_is_up(tmp_path):
    """A runner that takes 2 s to start (workers importing torch) does not eat the campaign's
    ``--time``: that time is ``startup_seconds``, and programs are judged for the full second."""
    class SlowStart(HeldHead):
        def __enter__(self):
            time.sleep(2.0)
            return self
    r = SlowStart(2)
    r.head = Future()
    r.head.set_result(None)   # no held head: every program is judged at once
    s = run_campaign(_opt(tmp_path, seconds=1.0), runner=r)
    assert s.startup_seconds >= 2.0 and s.programs > 0
    assert s.seconds >= s.startup_seconds + 1.0


def test_start_all_starts_every_worker_side_by_side():
    """Two real reference workers come up; their starts overlap (each waits at a barrier that
    only both together pass), and a second call starts nothing."""
    pool = Pool("reference", "cpu", jobs=2, timeout=120)
    gate = threading.Barrier(2, timeout=60)
    for w in pool.workers:
        real = w._start
        w._start = (lambda real: lambda: (gate.wait(), real())[1])(real)
    rec = phases.Phases()
    try:
        with phases.recording(rec):
            assert pool.start_all() == 2
        assert rec.count("worker start reference") == 2   # the summary's "workers started"
        assert all(w.proc is not None and w.proc.poll() is None for w in pool.workers)
        assert pool.start_all() == 0
    finally:
        pool.close()


def test_a_worker_that_cannot_start_is_left_to_report_itself():
    """start_all swallows the failure (the first request meets it again and says why)."""
    pool = Pool("reference", "cpu", jobs=1, timeout=120)
    try:
        pool.workers[0]._start = lambda: (_ for _ in ()).throw(RuntimeError("the reference worker did not start"))
        assert pool.start_all() == 0
        assert pool.workers[0].proc is None
    finally:
        pool.close()
