"""The value rules, checked during a real reference run (``ValueWatch``)."""
from __future__ import annotations

from typing import Any

from ...model import Stmt
from .base import Violation, rules


class ValueWatch:
    """The value rules, checked during a real reference run: ``interpret.run(watch=w)`` calls
    ``w(i, stmt, spec, args, results)`` for every op with its resolved arguments, before it runs
    (``results`` None) and with its results. Each registered rule with a value part
    (``Rule.before``/``after``) whose tags the op carries judges it. ``found`` lists each rule
    broken, once per statement and rule."""

    def __init__(self):
        self.found: list[Violation] = []
        self._rules = [r for r in rules() if r.is_value]

    def __call__(self, i: int, s: Stmt, spec, args: dict[str, Any], results) -> None:
        for rule in self._rules:
            if not rule.tags & spec.tags or not rule.judges(s):
                continue
            try:
                why = rule.before(s, spec, args) if results is None else rule.after(s, spec, args, results)
            except (RuntimeError, TypeError, ValueError):   # a check that cannot run judges nothing
                continue
            if why:
                self._add(i, s, rule.name, why)

    def _add(self, i: int, s: Stmt, rule: str, message: str) -> None:
        line = s.origin.line if s.origin is not None else None
        if not any(v.rule == rule and v.stmt == i for v in self.found):
            self.found.append(Violation(rule, message, i, line))
