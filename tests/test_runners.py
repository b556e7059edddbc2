"""The runner protocols (``oracle/runners.py``): every runner has the members its protocol names,
and one campaign gives the same buckets whichever runner judges it — this machine's pools
(``LocalRunner``), one ``SlotActor`` driven in this process (the slot half of the Ray runner,
without Ray), and a local Ray cluster (``RayRunner``, where ``import ray`` works)."""
import os
from concurrent.futures import Future

import pytest

from minimizer.backends import RunOptions
from minimizer.check import LocalChecks
from minimizer.cluster.actor import SlotActor
from minimizer.fuzz.campaign import CampaignOptions, LocalRunner, run_campaign, window_for
from minimizer.fuzz.findings import Store
from minimizer.oracle.context import RunContext
from minimizer.oracle.runners import Checks, Runner, Slot

CTX = RunContext(backend="inductor", device="cpu", jobs=2, quiet=True, timeout=300,
                 options=RunOptions(inductor_config=(("cpp.inject_relu_bug_TESTING_ONLY", "accuracy"),)))
#: seed 28 with one op per program holds an fp16 relu at example 4 (Inductor's test-only relu fault)
CAMPAIGN = dict(ctx=CTX, max_examples=5, seed=28, max_ops=1, oracles=("failure", "differential"), minimize=False)


def test_every_runner_has_its_protocols_members():
    opt = CampaignOptions(ctx=RunContext(backend="reference", quiet=True))
    assert isinstance(LocalRunner(opt), Runner)
    assert isinstance(LocalChecks(opt.ctx), Checks)
    assert issubclass(SlotActor, Slot)
    try:
        from minimizer.cluster import RayRunner
    except ImportError:
        return
    ray_runner = RayRunner(opt)
    assert isinstance(ray_runner, Runner) and isinstance(ray_runner, Checks)


def test_the_protocol_check_is_not_blind():
    """A runner without ``recheck`` (or without ``window``) is not a ``Runner``."""
    class NoRecheck:
        window = reduce_slots = n = 1

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def judge(self, e, text):
            ...

        def reduce(self, key, meta, outcome, bucket_dir):
            ...

        def describe(self):
            return ""

    assert not isinstance(NoRecheck(), Runner)
    NoRecheck.recheck = lambda self, job: None
    assert isinstance(NoRecheck(), Runner)
    del NoRecheck.window
    assert not isinstance(NoRecheck(), Runner)


class SlotHere:
    """A ``Runner`` over one ``SlotActor`` in this process: each unit runs when submitted, by the
    method of the same name, as ``RayRunner`` sends it to an actor (``reduce`` as its ``job``)."""

    def __init__(self, opt: CampaignOptions):
        self.opt, self.window, self.reduce_slots, self.n = opt, window_for(1), 1, 1

    def __enter__(self):
        self.slot = SlotActor(self.opt)
        self.slot.ready()
        return self

    def __exit__(self, *exc):
        self.slot.close()
        return False

    def _done(self, method: str, *args) -> Future:
        f: Future = Future()
        f.set_running_or_notify_cancel()
        f.set_result(getattr(self.slot, method)(*args))
        return f

    def judge(self, e, text: str) -> Future:
        return self._done("judge", e, text)

    def reduce(self, key, meta, outcome, bucket_dir) -> Future:
        with open(os.path.join(bucket_dir, "original.py"), encoding="utf-8") as f:
            files = {"original.py": f.read()}
        return self._done("reduce", {"meta": meta, "outcome": outcome, "files": files, "bucket_dir": bucket_dir})

    def recheck(self, job: dict) -> Future:
        return self._done("recheck", job)

    def describe(self) -> str:
        return "one slot here"


def _buckets(corpus) -> dict:
    return {b["key"]: (b["first_example"], sorted(b["examples"]), b["count"]) for b in Store(str(corpus)).buckets()}


@pytest.fixture(scope="module")
def here(tmp_path_factory):
    """The campaign on this machine's pools (the default runner)."""
    corpus = tmp_path_factory.mktemp("local")
    s = run_campaign(CampaignOptions(corpus=str(corpus), **CAMPAIGN))
    buckets = _buckets(corpus)
    (key,) = [k for k in buckets if "relu" in k]   # the campaign finds something to compare
    assert buckets[key][0] == "28.0.4"
    return buckets, s


def _ray_runner(opt):
    ray = pytest.importorskip("ray")
    from minimizer.cluster import RayOptions, RayRunner
    from minimizer.cluster.runner import restore_signal_handlers, signal_handlers
    saved = signal_handlers()
    if not ray.is_initialized():   # a local cluster of two CPUs, one actor on each
        ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False)
    return RayRunner(opt, RayOptions(actors=2)), lambda: (ray.shutdown(), restore_signal_handlers(saved))


@pytest.mark.parametrize("where", ["slot", "ray"])
def test_a_campaign_gives_the_same_buckets_on_every_runner(here, where, tmp_path):
    opt = CampaignOptions(corpus=str(tmp_path), **CAMPAIGN)
    stop = None
    runner = SlotHere(opt) if where == "slot" else None
    if where == "ray":
        runner, stop = _ray_runner(opt)
    assert isinstance(runner, Runner)
    try:
        s = run_campaign(opt, runner=runner)
    finally:
        if stop is not None:
            stop()
    buckets, local = here
    assert _buckets(tmp_path) == buckets
    assert (s.programs, s.statuses, s.ops) == (local.programs, local.statuses, local.ops)
