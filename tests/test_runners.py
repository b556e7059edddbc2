"""The runner protocols (``oracle/runners.py``): every runner has the members its protocol names,
and the check sees a missing one. That one campaign gives the same buckets whichever runner
judges it — this machine's pools (``LocalRunner``) or a local Ray cluster (``RayRunner``, one
``SlotActor`` per slot) — is ``test_ray.py``'s first test (it needs Ray, which CI installs)."""
from minimizer.check import LocalChecks
from minimizer.cluster.actor import SlotActor
from minimizer.fuzz.campaign.local import LocalRunner
from minimizer.fuzz.campaign.options import CampaignOptions
from minimizer.oracle.context import RunContext
from minimizer.oracle.runners import Checks, Runner, Slot


def test_every_runner_has_its_protocols_members():
    opt = CampaignOptions(ctx=RunContext(backend="reference", quiet=True))
    assert isinstance(LocalRunner(opt), Runner)
    assert isinstance(LocalChecks(opt.ctx), Checks)
    assert issubclass(SlotActor, Slot)
    from minimizer.cluster import RayRunner   # imports no Ray until it is entered
    ray_runner = RayRunner(opt)
    assert isinstance(ray_runner, Runner) and isinstance(ray_runner, Checks)


def test_the_protocol_check_is_not_blind():
    """A runner without ``recheck`` (or without ``window``) is not a ``Runner``; a slot without
    ``ready`` is not a ``Slot``."""
    class NoRecheck:
        window = reduce_slots = n = 1

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def judge_example(self, e, text):
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
    assert not issubclass(type("NoReady", (), {k: v for k, v in vars(SlotActor).items() if k != "ready"}), Slot)
