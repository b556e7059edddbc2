"""The facts about a program that static validity rules read, each computed at most once per
judged program and only when a rule that applies to one of its statements names it in
``Rule.needs`` (most generated programs write no input and shift nothing: no rule applies, and
no static check is made for them)."""
from __future__ import annotations

from typing import Any, Callable

from ...model import Program
from .. import static
from .reading import definitions

#: fact name -> how it is computed from the program
FACTS: dict[str, Callable[[Program], Any]] = {
    # the static check of the program (shapes and dtypes of every value, on ``meta`` tensors); a
    # program the check rejects is judged on what it computed before the rejected statement
    "static": static.check_partial,
    # value name -> the index of the statement that defines it
    "definitions": definitions,
}


def facts_for(needs, program: Program, known: dict[str, Any]) -> dict[str, Any]:
    """The facts named in ``needs``, from ``known`` (facts the caller or an earlier rule has:
    filled in with those computed here)."""
    for name in needs:
        if name not in known:
            known[name] = FACTS[name](program)
    return {name: known[name] for name in needs}
