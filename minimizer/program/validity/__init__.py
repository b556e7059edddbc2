"""What makes a fusion program well defined: the rules a program must obey before a difference
between nvFuser and the reference can be nvFuser's bug.

A program that breaks one of these rules has no single right answer: nvFuser (or CUDA under it)
may legitimately compute something else than fmin's reference, so a wrong result or a failure of
such a program is not evidence of a bug (Csmith and YARPGen keep C programs free of undefined
behaviour by construction for the same reason) — for a value rule, only what the values decide:
a wrong value or a failed check of values (``fuzz.buglist.classes.depends_on_values``). Each rule
is one module of ``validity.rules`` (``base.Rule``: its id, a one-line statement, the catalog tags
of the ops it judges, the facts it reads), and in ``tests/test_validity.py`` a real program from
the fuzz corpus breaks it.

Two kinds of rules (one rule may be both):

* **static** rules read the program and its static check (shapes and dtypes on ``meta``
  tensors): ``violations(program)`` lists what a program breaks, for a generated or mutated
  program (discarded before it runs), a reduction's candidate (``static.check(rules=...)``) and a
  stored finding (``merge-findings`` reclassifying the corpus offline);
* **value** rules need the values: ``ValueWatch`` is handed to the reference interpreter
  (``interpret.run(watch=...)``), which calls it after every op of a real run in a worker, so
  the fuzzer's differential oracle and a recheck of a stored program learn them from the
  reference's run (``Outcome.undefined``).

Shifts, integer overflow, division by zero and float-to-integer conversions out of range are
undefined in C++ and CUDA, which nvFuser's kernels are written in; what the alias rules say about
nvFuser is in ``aliasing``. ``grouped_mm`` evaluates ``at::_grouped_mm``, which writes nothing past
its last offset (``ops/grouped.py``); an index op's index must lie in the extent it indexes
(``ops/indexing.py``). A rule on the values of an op's parameter is static where the program tells
enough, and kept by construction where it can be (``value_params``).

``RULES`` (id -> statement), ``STATIC_RULES`` and ``VALUE_RULES`` are read from the registry when
asked, so a rule registered later (a plugin's) is among them.
"""
from __future__ import annotations

from .aliasing import aliased_inputs
from . import base
from .base import Rule, Violation, register
from .judge import InvalidProgram, check, enforced_for, violations
from .value_params import computed_values, input_values, misfit
from .watch import ValueWatch


def __getattr__(name: str):
    """``RULES``, ``STATIC_RULES`` and ``VALUE_RULES``, from the registry as it is now."""
    if name == "RULES":   # (``validity.rules`` is the package of rule modules; the registry is ``base.rules``)
        return {r.name: r.statement for r in base.rules()}
    if name == "STATIC_RULES":
        return tuple(r.name for r in base.rules() if r.is_static)
    if name == "VALUE_RULES":
        return tuple(r.name for r in base.rules() if r.is_value)
    if name == "VALUE_PARAM_RULES":   # the rules of the catalog's ``ValueParam``s: value rules, static too
        from .value_params import ValueParamRule
        return tuple(r.name for r in base.rules() if isinstance(r, ValueParamRule))
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["RULES", "STATIC_RULES", "VALUE_RULES", "VALUE_PARAM_RULES", "InvalidProgram", "Rule", "Violation", "ValueWatch",
           "aliased_inputs", "check", "computed_values", "enforced_for", "input_values", "misfit",
           "register", "violations"]
