"""fmin beyond one machine: campaigns, rechecks and batch checks on a Ray cluster (``--ray``).

Only the *where* changes: ``RayRunner`` (``runner.py``) is a runner for ``fuzz.campaign`` — one
actor per worker slot, each owning warm pools (``actor.py``) — and generation, bucketing, the
corpus and the reports stay in the driver, in the code every campaign runs. Nothing outside this
unit imports Ray, and this unit is imported only for ``--ray`` (fmin's ``ray`` extra: ``ray>=2.50``).
See docs/fuzz.md, "On a Ray cluster".
"""
from __future__ import annotations

from .runner import ClusterError, RayOptions, RayRunner

__all__ = ["ClusterError", "RayOptions", "RayRunner", "run_campaign", "recheck"]


def run_campaign(opt, ray_opt: RayOptions):
    """``fmin fuzz --ray``: the campaign of ``opt`` judged and reduced on the cluster."""
    from ..fuzz.campaign.run import run_campaign as run
    return run(opt, runner=RayRunner(opt, ray_opt))


def recheck(opt, ray_opt: RayOptions) -> list[dict]:
    """``fmin fuzz --recheck --ray``: every bucket replayed on the cluster, the corpus marked here."""
    from ..fuzz.campaign.recheck import recheck as run
    return run(opt, runner=RayRunner(opt, ray_opt))
