"""What counts as a finding, for one generated program: the fuzz oracles, one module each.

Four oracles, cheapest first, each a question the rest of fmin already knows how to ask:
**failure** (``failure``: the backend fails on a valid program), **differential**
(``differential``: outputs against the reference), and two **metamorphic** ones (``order``: the
inputs permuted; ``layout``: plain inputs in another memory layout) that must keep status, segment
count and schedulers. Each is registered with its name and order (``base.register``);
``run_oracles`` asks them in that order and ``--oracles`` selects among them (``ORACLES``).

A ``Finding`` carries the bucket key (what "the same bug" means: ``keys``), the owner (``fmin``
or the backend) and the property flags under which the reducer minimizes it. A permutation or
relayout whose variant *fails* is a failure finding (the variant's program, its failure's key)
marked ``order_dependent``/``layout_dependent``: the bucket is the bug the variant shows, and
what gets reduced and attached fails as written.
"""
from __future__ import annotations

from .base import Example, Finding, Judged, NotJudged, Oracle, names, register, registered
from .failure import FMIN_KINDS, failure as _failure, failure_owner
from .judge import run_oracles
from .order import order_can_matter, order_variant


def __getattr__(name: str):
    """``ORACLES``: the registered oracles' names, cheapest first (``base.names``)."""
    if name == "ORACLES":
        return names()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ORACLES", "FMIN_KINDS", "Example", "Finding", "Judged", "NotJudged", "Oracle", "failure_owner", "names",
           "order_can_matter", "order_variant", "register", "registered", "run_oracles"]
