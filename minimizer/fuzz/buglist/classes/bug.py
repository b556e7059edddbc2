"""*Bugs*: what no other class claims — an internal assert, a crash or a wrong result of a valid
program, which a maintainer reads first and trusts. Its claim comes last and takes every bucket,
so each bucket has a class; its section is shown even when empty."""
from __future__ import annotations

from ..evidence import Decision
from .base import BugClass, register

NAME = "bug"


def left_over(bucket, script, outcome, context) -> Decision:
    """Every bucket no earlier claim took."""
    return Decision(NAME)


@register
class Bug(BugClass):
    name = NAME
    title = "Bugs"
    order = page_order = 10
    shown_empty = True
    claims = ((1000, left_over),)
