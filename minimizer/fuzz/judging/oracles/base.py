"""What a fuzz oracle is, what it judges (``Example``) and returns (``Finding``, ``NotJudged``),
and the registry ``run_oracles`` and the command line's ``--oracles`` read.

An oracle is one judge function in one module of this package, registered with its name and its
order (``@register("order", order=20)``; cheapest first: ``run_oracles`` asks them in that order).
The registry imports every module of the package, so adding an oracle is adding its file: it is
then selectable with ``--oracles`` and judged on every program.
"""
from __future__ import annotations

import importlib
import pkgutil
import threading
from dataclasses import dataclass
from functools import cached_property
from typing import Callable

from ....model import Program
from ....oracle.outcome import Outcome
from ....oracle.pool import Pools
from ....oracle.triage import judgeable
from .... import phases
from ...store.finding import Finding


@dataclass
class Judged:
    outcome: Outcome
    findings: list[Finding]
    skipped: str | None = None   # why the program was not judged (a script or environment failure)
    phases: phases.Phases | None = None   # where its time went, where it was judged (``campaign.judge_example``)


@dataclass(frozen=True)
class NotJudged:
    """An oracle's answer where it could not judge the program: why (a failure of the script or of
    the machine; outputs of a program that breaks a value rule)."""
    reason: str


@dataclass
class Example:
    """One program being judged, and how to run things for it. ``outcome`` is its run on the
    backend under test (with its values saved where an oracle that ``reads_values`` is asked);
    ``pool`` runs the backend, ``ref_pool`` the reference (the same pool when the backend is the
    reference); ``example_seed`` seeds the metamorphic variants."""
    program: Program
    text: str
    path: str
    outcome: Outcome
    pool: object
    ref_pool: object
    backend: str
    seed: int = 0
    example_seed: int = 0

    @cached_property
    def pools(self) -> Pools:
        """Both pools as the checks take them (one object for every oracle of the example)."""
        return Pools.of(self.pool, reference=self.ref_pool)


@dataclass(frozen=True)
class Oracle:
    """One question asked of every generated program. ``judge(example)`` answers it: a
    ``Finding``, a ``NotJudged`` or None (nothing found).

    ``judges_failures``: it judges a run that failed (the failure oracle) and is asked on every
    failed run, selected or not, since its answer also says whether the failure was the fusion's
    at all (a ``NotJudged``); only a selected one's finding is kept. The others judge a run that
    ended well. ``reads_values``: the run saves its values for it. ``applies(backend)``: whether it
    means anything on that backend (the differential oracle does not on the reference itself)."""
    name: str
    order: int
    judge: Callable[[Example], object]
    judges_failures: bool = False
    reads_values: bool = False
    applies: Callable[[str], bool] = lambda backend: True


def not_the_fusions(o: Outcome) -> bool:
    """The script's or the machine's failure (``oracle.triage``): never a finding."""
    return not judgeable(o)


_REGISTRY: dict[str, Oracle] = {}
_LOADED = [False]
_LOAD_LOCK = threading.RLock()   # threads may ask at once: none may see a half-filled registry


def register(name: str, *, order: int, judges_failures: bool = False, reads_values: bool = False,
             applies: Callable[[str], bool] | None = None):
    """Decorator of a judge function: make it the oracle ``name``, asked in ``order`` (lowest
    first). A name another module registered already is refused."""
    def add(judge: Callable[[Example], object]):
        old = _REGISTRY.get(name)
        if old is not None and old.judge.__module__ != judge.__module__:
            raise ValueError(f"oracle {name!r} of {judge.__module__} is already registered by {old.judge.__module__}")
        _REGISTRY[name] = Oracle(name, order, judge, judges_failures, reads_values,
                                 applies or (lambda backend: True))
        return judge
    return add


def registered() -> list[Oracle]:
    """Every registered oracle, cheapest first (``order``, then name)."""
    if not _LOADED[0]:
        with _LOAD_LOCK:
            if not _LOADED[0]:
                package = __name__.rsplit(".", 1)[0]
                for m in pkgutil.iter_modules(importlib.import_module(package).__path__):
                    if m.name not in ("base", "judge"):
                        importlib.import_module(f"{package}.{m.name}")
                _LOADED[0] = True
    return sorted(_REGISTRY.values(), key=lambda o: (o.order, o.name))


def names() -> tuple[str, ...]:
    """The oracles' names, cheapest first: what ``--oracles`` accepts, all of them by default."""
    return tuple(o.name for o in registered())
