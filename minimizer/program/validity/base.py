"""What a validity rule is, what breaking one looks like (``Violation``), and the registry that
``violations`` and ``ValueWatch`` read.

A rule is one class in one module of ``validity.rules`` (or of a plugin named in
``FMIN_PLUGINS``), decorated with ``@register``. It says which statements it judges by the op
catalog's tags (``ops.spec.TAGS``: ``shift``, ``int-arith``, ``alias-write`` ...), never by op
names of its own, and which program facts its static part reads (``facts.FACTS``): those facts are
computed for a program because a rule that applies to one of its statements declares them, so a
new rule cannot be skipped for want of a fact nobody asked for. The registry imports every module
of ``validity.rules``: adding a rule is adding its file.
"""
from __future__ import annotations

import importlib
import pkgutil
import threading
from dataclasses import dataclass
from typing import Any, ClassVar

from ... import plugins
from ...model import Program, Stmt
from ...ops.spec import TAGS
from .facts import FACTS


@dataclass(frozen=True)
class Violation:
    """One broken rule: its id, what breaks it, and where (the statement index; its line where the
    program was read from a script)."""
    rule: str
    message: str
    stmt: int | None = None
    line: int | None = None

    def __str__(self) -> str:
        at = f"line {self.line}: " if self.line else f"statement {self.stmt + 1}: " if self.stmt is not None else ""
        return f"{at}{self.rule}: {self.message}"

    def to_json(self) -> dict:
        return {"rule": self.rule, "message": self.message, "stmt": self.stmt, "line": self.line}

    @classmethod
    def from_json(cls, d: dict) -> "Violation":
        return cls(d["rule"], d.get("message", ""), d.get("stmt"), d.get("line"))


def violation_at(program: Program, i: int | None, rule: str, message: str) -> Violation:
    """A violation of ``rule`` at statement ``i`` of ``program``, with its line where it has one."""
    s = program.stmts[i] if i is not None and 0 <= i < len(program.stmts) else None
    return Violation(rule, message, i, s.origin.line if s is not None and s.origin is not None else None)


class Rule:
    """One rule a program must obey to have a single right result.

    ``name`` is its id, ``statement`` the rule in one line (what a maintainer is told), ``order``
    its place among the rules (``RULES``, and the order of a program's violations). ``tags``: the
    catalog tags of the statements it judges; ``judges(s)`` may narrow that (an ``add_output``
    writes into an input only with an ``alias_input``). A rule has a static part, a value part
    or both:

    * ``static(program, facts, at)``: the violations of ``program`` at the statements ``at`` it
      judges; ``facts`` holds exactly the facts named in ``needs``;
    * ``before(s, spec, args)`` and ``after(s, spec, args, results)``: what is wrong (a message,
      or None) with one op of a real reference run, before it runs and with its results
      (``ValueWatch``); a check that raises judges nothing."""
    name: ClassVar[str] = ""
    statement: ClassVar[str] = ""
    order: ClassVar[int] = 100
    tags: ClassVar[frozenset[str]] = frozenset()
    needs: ClassVar[frozenset[str]] = frozenset()
    #: how nvFuser itself refuses a program breaking the rule, where its own tests expect that
    #: refusal ("": it does not): such a failure is by design, not a missing check
    refused: ClassVar[str] = ""

    def judges(self, s: Stmt) -> bool:
        """Whether this rule judges ``s``, a statement of an op that carries one of its tags."""
        return True

    def static(self, program: Program, facts: dict[str, Any], at: list[int]) -> list[Violation]:
        raise NotImplementedError

    def before(self, s: Stmt, spec, args: dict[str, Any]) -> str | None:
        return None

    def after(self, s: Stmt, spec, args: dict[str, Any], results: tuple) -> str | None:
        return None

    @property
    def is_static(self) -> bool:
        """It is decided on the program and its static check (it defines ``static``)."""
        return type(self).static is not Rule.static

    @property
    def is_value(self) -> bool:
        """It needs the values of a real run (it defines ``before`` or ``after``)."""
        return type(self).before is not Rule.before or type(self).after is not Rule.after


_REGISTRY: dict[str, Rule] = {}
_LOADED = [False]
_LOAD_LOCK = threading.RLock()   # threads may ask at once: none may see a half-filled registry


def register(cls: type[Rule]) -> type[Rule]:
    """Class decorator: make a rule known by its ``name``. Refused: a rule without a statement,
    without tags, with a tag the catalog does not define or a fact ``facts.FACTS`` does not
    compute (it would never run), with neither part, or a name another module registered already."""
    rule = cls()
    problems = [why for bad, why in (
        (not cls.name or not cls.statement, "has no name or no statement"),
        (not cls.tags, "names no catalog tag of the ops it judges"),
        (not cls.tags <= TAGS.keys(), f"names tags the catalog does not define: {sorted(cls.tags - TAGS.keys())}"),
        (not cls.needs <= FACTS.keys(), f"needs facts nobody computes: {sorted(cls.needs - FACTS.keys())}"),
        (not (rule.is_static or rule.is_value), "defines neither static nor before/after")) if bad]
    if problems:
        raise ValueError(f"validity rule {cls.__name__}: {'; '.join(problems)}")
    old = _REGISTRY.get(cls.name)
    if old is not None and type(old).__module__ != cls.__module__:
        raise ValueError(f"validity rule {cls.name!r} of {cls.__module__} is already registered by "
                         f"{type(old).__module__}")
    _REGISTRY[cls.name] = rule
    return cls


def rules() -> list[Rule]:
    """Every registered rule, in order (``Rule.order``, then name)."""
    if not _LOADED[0]:
        with _LOAD_LOCK:
            if not _LOADED[0]:
                package = __name__.rsplit(".", 1)[0] + ".rules"
                for m in pkgutil.iter_modules(importlib.import_module(package).__path__):
                    importlib.import_module(f"{package}.{m.name}")
                plugins.load()
                _LOADED[0] = True
    return sorted(_REGISTRY.values(), key=lambda r: (r.order, r.name))
