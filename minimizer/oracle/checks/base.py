"""What a check is, what it is given, and the registry the command line and ``Property`` read.

A check is one condition a script's run must meet (``--segments '>=2'``, ``--mismatch``, ...). It
lives in one module of this package: the class says which evidence it needs beyond the
candidate's own ``Outcome`` (``gather``: more runs, a shell command, saved values), how costly that
is (``cost``: cheap checks are judged first, so a reducer stops before the expensive ones), the
command-line flags that ask for it (``add_arguments``/``from_args``), and how to judge
(``holds``: a pure function of the outcome and the gathered evidence, so tests can feed fakes).
``@register`` makes it known; the registry imports every module of the package and every plugin
module named in ``FMIN_PLUGINS`` (``minimizer.plugins``), so a new check is one new file. What a
check costs beyond judging — the extra runs whose memory ``oracle.memory.plan`` must count before
any worker starts — is said by the class too (``runs_reference``, ``runs_fp64_reference``).
"""
from __future__ import annotations

import argparse
import dataclasses
import importlib
import pkgutil
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

from ... import plugins
from ...backends import RunOptions
from ..outcome import Outcome
from ..pool import Request

if TYPE_CHECKING:
    from ...model import Program
    from ..pool import Pools

#: a check's expected value that is taken from the original run (``Check.bind``)
SAME = None


@dataclass(frozen=True)
class Missing:
    """Evidence that could not be gathered, and why (the check then does not hold)."""
    reason: str


@dataclass
class Trial:
    """One candidate being judged: what a check's ``gather`` may look at and run.

    ``run`` runs the candidate (or another text) on a backend's pool; ``program`` is the
    candidate parsed once, for checks that rewrite it (input permutations, layouts)."""
    text: str
    path: str
    seed: int
    outcome: Outcome | None
    pools: "Pools"
    options: RunOptions = RunOptions()      # for the candidate's own runs (e.g. Inductor's eager mode)
    program_: "Program | None" = None
    info_: object = None                    # its static check, where the funnel made it already

    @property
    def program(self) -> "Program":
        if self.program_ is None:
            from ...program import parse
            self.program_ = parse(self.text, self.path)
        return self.program_

    @property
    def info(self):
        """The candidate's static check (``static.check``; raises FusionError), made once."""
        if self.info_ is None:
            from ...program.static import check
            self.info_ = check(self.program)
        return self.info_

    @property
    def backend(self) -> str:
        return self.pools.name

    def run(self, backend: str | None = None, *, text: str | None = None, **options) -> Outcome:
        """Run the candidate (or ``text``) on ``backend`` (default: the one under test)."""
        name = backend or self.pools.name
        opts = RunOptions(seed=self.seed, **options)
        if name == self.pools.name:
            opts = opts.over(self.options)
        return self.pools.get(name).run(Request(text if text is not None else self.text, self.path, opts))

    def run_many(self, texts: list[str]) -> list[Outcome]:
        """Several variants of the candidate on the backend under test, spread over its workers."""
        pool = self.pools.primary
        opts = RunOptions(seed=self.seed).over(self.options)
        reqs = [Request(t, self.path, opts) for t in texts]
        many = getattr(pool, "run_many", None)
        return many(reqs) if many is not None else [pool.run(r) for r in reqs]


class Check:
    """One condition. ``name`` is its key in reports and property JSON."""
    name: ClassVar[str] = ""
    #: judged in increasing cost: 0 reads only the candidate's outcome; each extra run costs more
    cost: ClassVar[int] = 0
    #: the candidate itself must run on the backend (False only for a shell test)
    needs_outcome: ClassVar[bool] = True
    #: the candidate's run must save its values (``--mismatch``)
    needs_values: ClassVar[bool] = False
    #: the position of this check's flags in ``--help`` and of the check in a property
    order: ClassVar[int] = 50
    #: it reads how the fusion was segmented: shapes then keep extents >= 2 (``ShrinkShapes``)
    reads_segments: ClassVar[bool] = False
    #: ``gather`` runs the candidate on the reference backend too (memory: one more run, and a
    #: reference worker beside the backend's)
    runs_reference: ClassVar[bool] = False
    #: ``gather`` runs the fp64 reference (every floating value in float64: about twice the
    #: memory of the reference run where the script computes in float32)
    runs_fp64_reference: ClassVar[bool] = False
    #: it can only be judged on a backend that reports segments (``Facts.reports_segments``):
    #: asked of another, the command stops before any run
    needs_segments: ClassVar[bool] = False
    #: a candidate could meet it through a tensor the original did not have (zero-element, 0-d,
    #: all-broadcast, an extent shrunk to 1) instead of through what the user meant: the reducer
    #: keeps such candidates out unless --allow-degenerate (``PropertyOracle.guards_degenerate``).
    #: Implied by ``reads_segments`` (nvFuser segments such tensors apart); set by a black-box
    #: check (fmin cannot tell what a user's test reads)
    guards_degenerate: ClassVar[bool] = False

    # ---- the command line ----
    @classmethod
    def add_arguments(cls, group: argparse._ArgumentGroup) -> None:
        """Add this check's flags (none by default: e.g. the default property's checks)."""

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> "Check | None":
        """The check the parsed flags ask for, or None. Raises ValueError for a bad value."""
        return None

    # ---- judging ----
    def backends(self) -> set[str]:
        """Backends besides the one under test whose pools ``gather`` uses."""
        return set()

    def static(self, program: "Program", info) -> tuple[bool, str] | None:
        """Judge from the candidate program alone (its static check ``info``), before any run:
        the reducer drops a candidate that fails here without calling a backend. None: this
        check needs a run."""
        return None

    def gather(self, trial: Trial) -> Any:
        """Run what the check needs beyond the outcome; the result (or a ``Missing``) is what
        ``holds`` gets as evidence."""
        return None

    def holds(self, o: Outcome | None, evidence: Any = None) -> tuple[bool, str]:
        """(holds, why). Evidence that could not be gathered never reaches here: ``judge`` answers
        for a ``Missing`` with its reason."""
        raise NotImplementedError

    def judge(self, o: Outcome | None, evidence: Any = None) -> tuple[bool, str]:
        """``holds``, except that a ``Missing`` piece of evidence fails with its reason."""
        if isinstance(evidence, Missing):
            return False, evidence.reason
        return self.holds(o, evidence)

    def describe(self) -> str:
        raise NotImplementedError

    def detail(self, evidence: Any) -> str:
        """More than ``holds``' one line about why it failed (e.g. the tail of a test's output),
        shown when the original does not show the property; "" for nothing more."""
        return ""

    def bind(self, original: Outcome) -> "Check":
        """Resolve values taken from the original run (e.g. a bare ``--schedulers``)."""
        return self

    def evidence_json(self, evidence: Any) -> Any:
        """The gathered evidence for a report (None: nothing worth showing)."""
        to_json = getattr(evidence, "to_json", None)
        return to_json() if to_json else None

    # ---- storage ----
    def to_json(self) -> dict:
        return {"check": self.name, **dataclasses.asdict(self)}

    @classmethod
    def from_json(cls, d: dict) -> "Check":
        return cls(**d)


def failure_words(o: Outcome) -> str:
    return o.status if o.ok else f"{o.status} `{o.signature}`"


_REGISTRY: dict[str, type[Check]] = {}
_LOADED = [False]
_LOAD_LOCK = threading.RLock()   # threads may ask at once: none may see a half-filled registry


def register(cls: type[Check]) -> type[Check]:
    """Class decorator: make a check known by its ``name`` (one a module elsewhere has registered
    already is refused: a plugin must not replace a check silently)."""
    if not cls.name:
        raise ValueError(f"{cls.__name__} has no name")
    old = _REGISTRY.get(cls.name)
    if old is not None and old.__module__ != cls.__module__:
        raise ValueError(f"check {cls.name!r} of {cls.__module__} is already registered by {old.__module__}")
    _REGISTRY[cls.name] = cls
    return cls


def checks() -> list[type[Check]]:
    """Every registered check, in flag order."""
    if not _LOADED[0]:
        with _LOAD_LOCK:
            if not _LOADED[0]:
                package = __name__.rsplit(".", 1)[0]
                for m in pkgutil.iter_modules(importlib.import_module(package).__path__):
                    if m.name != "base":
                        importlib.import_module(f"{package}.{m.name}")
                plugins.load()
                _LOADED[0] = True
    return sorted(_REGISTRY.values(), key=lambda c: (c.order, c.name))


def by_name(name: str) -> type[Check]:
    checks()
    if name not in _REGISTRY:
        raise ValueError(f"unknown check {name!r}")
    return _REGISTRY[name]
