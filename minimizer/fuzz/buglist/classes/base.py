"""What a bug-list class is, the registry of them, and ``decide``: the first claim that takes a
bucket gives its class.

A class is one ``BugClass`` in one module of ``buglist.classes`` (or of a plugin named in
``FMIN_PLUGINS``), decorated with ``@register``. It says its name, its place among the classes
(``order``: ``CLASSES``, the page's header) and on the page (``page_order``), its section's title
and the line under it, how its rows are laid out where the page's columns do not suit it, and its
part of the decision: ``claims``, pairs of a precedence and a hook ``hook(bucket, script,
outcome, context)`` answering a ``Decision`` of this class or None. ``decide`` asks every
registered claim, lowest precedence first, and the first answer wins; so a class takes the
buckets no earlier claim took, and one class may claim at several steps (*by design* does: a
rule nvFuser enforces itself, a refusal, an expected split, a documented difference). The
registry imports every module of its package: adding a class is adding its file.
"""
from __future__ import annotations

import importlib
import pkgutil
import threading
from typing import Callable, ClassVar

from .... import plugins
from ..evidence import Context, Decision, default_violations
from ..table import table

#: a claim's hook: (bucket, script, outcome, context) -> the class's Decision, or None
Hook = Callable[..., "Decision | None"]


class BugClass:
    """One section of the bug list and the buckets it takes.

    ``name`` is its id (``Decision.cls``), ``title`` its section's title, ``intro`` the line
    after it ("" for none), ``order`` its place among the classes, ``page_order`` its section's
    place on the page. ``shown_empty``: its section is shown when it has no row (the bugs').
    ``claims``: ``(precedence, hook)`` pairs, its part of ``decide``."""
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    intro: ClassVar[str] = ""
    order: ClassVar[int] = 100
    page_order: ClassVar[int] = 100
    shown_empty: ClassVar[bool] = False
    claims: ClassVar[tuple[tuple[int, Hook], ...]] = ()

    def count(self, rows: list[dict]) -> int:
        """The number its section's title shows."""
        return len(rows)

    def tally(self, rows: list[dict]) -> str:
        """Its rows in a few words, for the page's header."""
        return f"{len(rows)} {self.title.lower()}"

    def table(self, rows: list[dict]) -> list[str]:
        """Markdown lines of its rows (the page's columns, unless the class lays out its own)."""
        return table(rows)

    def section(self, rows: list[dict]) -> list[str]:
        """Its section's lines, a blank one first ([] when it has no row and is not shown empty)."""
        if not rows and not self.shown_empty:
            return []
        head = f"## {self.title} ({self.count(rows)})" + (f": {self.intro}" if self.intro else "")
        return ["", head, "", *self.table(rows)]


_REGISTRY: dict[str, BugClass] = {}
_LOADED = [False]
_LOAD_LOCK = threading.RLock()   # threads may ask at once: none may see a half-filled registry


def _problems(cls: type[BugClass]) -> list[str]:
    """Why the class cannot be registered ([] when it can)."""
    pairs = all(isinstance(c, tuple) and len(c) == 2 and isinstance(c[0], int) and callable(c[1])
                for c in cls.claims)
    taken = {p: c.name for c in _REGISTRY.values() if c.name != cls.name for p, _ in c.claims}
    clashes = sorted({taken[c[0]] for c in cls.claims if pairs and c[0] in taken})
    return [why for bad, why in (
        (not cls.name, "has no name"),
        (not cls.title, "has no title (its section could not be shown)"),
        (not cls.claims, "claims no bucket (it would never be decided)"),
        (not pairs, "has a claim that is not a (precedence, hook) pair"),
        (clashes, f"claims at a precedence another class claims at: {clashes}"),
    ) if bad]


def register(cls: type[BugClass]) -> type[BugClass]:
    """Class decorator: make a bug-list class known by its ``name``. Refused: a class without a
    name, a title or a claim, a claim at a precedence another class has (which answers first would
    be a matter of chance), or a name another module registered already."""
    problems = _problems(cls)
    if problems:
        raise ValueError(f"bug-list class {cls.__name__}: {'; '.join(problems)}")
    old = _REGISTRY.get(cls.name)
    if old is not None and type(old).__module__ != cls.__module__:
        raise ValueError(f"bug-list class {cls.name!r} of {cls.__module__} is already registered by "
                         f"{type(old).__module__}")
    _REGISTRY[cls.name] = cls()
    return cls


def registered() -> list[BugClass]:
    """Every registered class, in order (``order``, then name)."""
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


def names() -> tuple[str, ...]:
    """The classes' names, in order."""
    return tuple(c.name for c in registered())


def on_page() -> list[BugClass]:
    """Every registered class, in the order the page shows their sections."""
    return sorted(registered(), key=lambda c: (c.page_order, c.order, c.name))


def decide(meta, script: str | None, outcome: dict | None = None, *, violations=default_violations) -> Decision:
    """The class of the bucket ``meta`` (its ``finding.json``), whose filed script is ``script``
    (its text: the minimized one where there is one) and whose stored outcome is ``outcome``:
    the first registered claim, lowest precedence first, that takes it. ``violations``: a
    function giving the rules a ``Program`` breaks, or a function returning one (the default:
    ``program.validity``'s, when present)."""
    context = Context(meta, script, outcome, violations)
    for _, owner, hook in sorted(((p, c, h) for c in registered() for p, h in c.claims), key=lambda t: t[0]):
        d = hook(meta, script, outcome, context)
        if d is None:
            continue
        if d.cls != owner.name:
            raise ValueError(f"a claim of the bug-list class {owner.name!r} answered {d.cls!r}")
        return d
    raise LookupError(f"no bug-list class claims bucket {getattr(meta, 'id', '?')}")
