"""Which static rules a program breaks (``violations``), and the static check that refuses a
program for them (``check``)."""
from __future__ import annotations

from ...model import Program
from .. import static
from ..interpret import FusionError
from ...ops import lookup
from .base import Rule, Violation, rules
from .facts import facts_for


class InvalidProgram(FusionError):
    """A well-formed program that breaks a rule of ``validity`` (``violations``: which, where)."""

    def __init__(self, violations):
        first = violations[0]
        super().__init__(f"invalid program ({first.rule}): {first.message}", "definition", first.stmt)
        self.violations = violations


def static_rules() -> list[Rule]:
    """The rules decided on the program and its static check, in order."""
    return [r for r in rules() if r.is_static]


def check(program: Program, rules=None) -> "static.Info":
    """``static.check`` (well formed), then the static ``rules`` of ``validity`` it must also obey
    (None: none; a fuzz program is held to all of them, a reduction's candidate to those its
    original obeys): ``InvalidProgram`` where it breaks one."""
    info = static.check(program)
    if rules:
        broken = [v for v in violations(program, info) if v.rule in rules]
        if broken:
            raise InvalidProgram(broken)
    return info


def violations(program, info=None) -> list[Violation]:
    """The static rules ``program`` breaks (a ``Program``, or a script's text, read as ``fmin``
    reads it), rule by rule in their order. ``info``: its static check, where the caller has it.
    A rule runs where one of its statements is in the program (``Rule.tags``, ``Rule.judges``),
    with the facts it needs computed for it."""
    if isinstance(program, str):
        from ..reader import parse
        program = parse(program)
    tags = [getattr(lookup(s.call), "tags", frozenset()) for s in program.stmts]
    known = {} if info is None else {"static": info}
    found: list[Violation] = []
    for rule in static_rules():
        at = [i for i, s in enumerate(program.stmts) if rule.tags & tags[i] and rule.judges(s)]
        if at:
            found += rule.static(program, facts_for(rule.needs, program, known), at)
    return found


def enforced_for(program: Program, info=None) -> frozenset[str]:
    """The static rules a reduction of ``program`` keeps its candidates to: every rule the
    original obeys. A rule the user's original already breaks does not bind its candidates (the
    reduction must stay free to approach the user's program), but a candidate never breaks a rule
    the original keeps (a faithful reduction of a valid program stays valid)."""
    broken = {v.rule for v in violations(program, info)}
    return frozenset(r.name for r in static_rules() if r.name not in broken)
